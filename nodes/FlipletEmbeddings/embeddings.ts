import type { IDataObject } from 'n8n-workflow';

export interface EmbeddingSettings {
	model: string;
	dimensions?: number;
	batchSize: number;
}

export interface EmbeddingPorts {
	/** Sends one embeddings request (through the package's transport) and returns its JSON. */
	send(body: IDataObject): Promise<IDataObject>;
	/** Errors for empty input and for answers it cannot read. */
	emptyText(): Error;
	unreadable(response: IDataObject, expected: number): Error;
}

/**
 * The platform's embeddings in the shape n8n's vector stores call (`embedDocuments`,
 * `embedQuery`). Documents go in batches, one request each, in order; none is re-sent on its own.
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
		for (let start = 0; start < documents.length; start += this.settings.batchSize) {
			vectors.push(...(await this.embed(documents.slice(start, start + this.settings.batchSize))));
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
		const response = await this.ports.send(body);
		const vectors = vectorsOf(response, input.length);
		if (!vectors) throw this.ports.unreadable(response, input.length);
		return vectors;
	}
}

/** The vectors of an embeddings answer in input order, or undefined when it is not one per input. */
export function vectorsOf(response: IDataObject, expected: number): number[][] | undefined {
	if (!Array.isArray(response.data)) return undefined;
	const vectors: number[][] = new Array(expected);
	for (const [position, entry] of (response.data as IDataObject[]).entries()) {
		const index = typeof entry?.index === 'number' ? entry.index : position;
		const vector = entry?.embedding;
		if (!Array.isArray(vector) || !vector.every((value) => typeof value === 'number')) {
			return undefined;
		}
		if (index < 0 || index >= expected || vectors[index]) return undefined;
		vectors[index] = vector as number[];
	}
	return vectors.filter(Boolean).length === expected ? vectors : undefined;
}
