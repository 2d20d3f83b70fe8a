import type { IDataObject, IExecuteFunctions, ISupplyDataFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { AI_LIMITS, apiPath, flipletApiRequest, type PaceWait } from '../transport';
import type { MultipartBody } from '../transport/multipart';
import type { SendOncePlan } from './sendLedger';

export type AiEndpoint = 'completions' | 'image' | 'audio' | 'embeddings';

const NO_RETRY_NOTE =
	' AI requests are never re-sent automatically: once the platform has handed a request to the model provider, a retry can be billed twice.';

/** What a run says when its AI requests waited for the Free plan's pace. */
export const FREE_PLAN_HINT = `Paced to the Free plan's ${AI_LIMITS.free.limit} requests a minute: set Plan in the credential's Advanced Settings if yours allows more`;

/** The node runs (their contexts) that carry the Free plan's hint: once each. */
const hinted = new WeakSet<object>();

/**
 * A request waited for the AI limit's pace: on the Free plan's (the credential's default, as no API
 * tells the plan), the run says so once in n8n's execution hints, shown with its output. The
 * contexts of n8n 1.x and 2.x both take hints (nodes and sub-nodes); a host without them shows
 * none.
 */
function hintFreePlanPace(context: IExecuteFunctions | ISupplyDataFunctions, wait: PaceWait): void {
	if (wait.rate !== AI_LIMITS.free || hinted.has(context)) return;
	hinted.add(context);
	if (typeof context.addExecutionHints !== 'function') return;
	context.addExecutionHints({ message: FREE_PLAN_HINT, type: 'info', location: 'outputPane' });
}

/** AI requests are billed: a Retry On Fail try never makes one an earlier try made (or may have). */
export const AI_REQUEST_ONCE: SendOncePlan = { noun: 'AI request', done: 'made' };

/**
 * POST to one of the app's AI endpoints. Never idempotent (a 429 is still waited out and re-sent
 * by the transport, since it is refused before any work). Failures that may have reached the
 * provider say why they were not retried. `abortSignal` aborts the request in flight (an agent's
 * call its caller cancelled). A wait for the Free plan's pace adds a hint to the run.
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
			onPaced: (wait) => hintFreePlanPace(this, wait),
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
