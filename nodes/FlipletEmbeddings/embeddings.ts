import type { IDataObject } from 'n8n-workflow';

import { chunk, vectorsFrom } from '../Fliplet/helpers/aiEmbeddings';

export interface EmbeddingSettings {
	model: string;
	dimensions?: number;
	batchSize: number;
}

export interface EmbeddingPorts {
	/**
	 * Sends one embeddings request (through the package's transport) and returns its JSON; the
	 * signal aborts it in flight (and its failure is then `cancelled()`).
	 */
	send(body: IDataObject, abortSignal: AbortSignal | undefined): Promise<IDataObject>;
	/**
	 * The signal that cancels the calls: n8n's vector stores pass none to `embedDocuments` and
	 * `embedQuery`, so it is the execution's (a stopped execution).
	 */
	cancelSignal(): AbortSignal | undefined;
	/** Errors for empty input, for answers it cannot read, and for a cancelled call. */
	emptyText(): Error;
	unreadable(response: IDataObject, expected: number): Error;
	cancelled(): Error;
}

/**
 * The platform's embeddings in the shape n8n's vector stores call (`embedDocuments`,
 * `embedQuery`). Documents go in batches, one request each, in order; none is re-sent on its own.
 * Cancelling aborts the batch in flight and sends no further one.
 */
export class FlipletEmbeddings {
	constructor(
		private readonly settings: EmbeddingSettings,
		private readonly ports: EmbeddingPorts,
	) {}

	async embedDocuments(documents: string[]): Promise<number[][]> {
		if (documents.some((text) => typeof text !== 'string' || text === '')) {
			throw this.ports.emptyText();
		}
		const vectors: number[][] = [];
		for (const batch of chunk(documents, this.settings.batchSize)) {
			vectors.push(...(await this.embed(batch)));
		}
		return vectors;
	}

	async embedQuery(text: string): Promise<number[]> {
		if (typeof text !== 'string' || text === '') throw this.ports.emptyText();
		const [vector] = await this.embed([text]);
		return vector;
	}

	private async embed(input: string[]): Promise<number[][]> {
		const body: IDataObject = { model: this.settings.model, input, encoding_format: 'float' };
		if (this.settings.dimensions) body.dimensions = this.settings.dimensions;
		const signal = this.ports.cancelSignal();
		if (signal?.aborted) throw this.ports.cancelled();
		const response = await this.ports.send(body, signal);
		const vectors = vectorsFrom(response, input.length, 'float');
		if (typeof vectors === 'string') throw this.ports.unreadable(response, input.length);
		return vectors as number[][];
	}
}
