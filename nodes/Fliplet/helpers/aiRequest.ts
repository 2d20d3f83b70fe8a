import type { IDataObject, IExecuteFunctions, ISupplyDataFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiPath, flipletApiRequest } from '../transport';
import type { MultipartBody } from '../transport/multipart';
import type { SendOncePlan } from './sendLedger';

export type AiEndpoint = 'completions' | 'image' | 'audio' | 'embeddings';

const NO_RETRY_NOTE =
	' AI requests are never re-sent automatically: once the platform has handed a request to the model provider, a retry can be billed twice.';

/** AI requests are billed: a Retry On Fail try never makes one an earlier try made (or may have). */
export const AI_REQUEST_ONCE: SendOncePlan = { noun: 'AI request', done: 'made' };

/**
 * POST to one of the app's AI endpoints. Never idempotent (a 429 is still waited out and re-sent
 * by the transport, since it is refused before any work). Failures that may have reached the
 * provider say why they were not retried. `abortSignal` aborts the request in flight (an agent's
 * call its caller cancelled).
 */
export async function aiRequest(
	this: IExecuteFunctions | ISupplyDataFunctions,
	appId: number,
	endpoint: AiEndpoint,
	payload: { body: IDataObject } | { multipart: MultipartBody },
	itemIndex: number,
	timeout?: number,
	abortSignal?: AbortSignal,
): Promise<IDataObject> {
	try {
		return (await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('apps', appId, 'ai', endpoint),
			...payload,
			itemIndex,
			timeout,
			abortSignal,
		})) as IDataObject;
	} catch (error) {
		throw withNoRetryNote(error as Error);
	}
}

/** Adds to failures that may have reached the provider why they were not re-sent. */
function withNoRetryNote(error: Error): Error {
	if (error instanceof NodeApiError && mayHaveBeenBilled(error)) {
		error.description = `${error.description ?? ''}${NO_RETRY_NOTE}`.trim();
	}
	return error;
}

function mayHaveBeenBilled(error: NodeApiError): boolean {
	const status = Number(error.httpCode);
	return !error.httpCode || Number.isNaN(status) || status >= 500;
}
