import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import {
	sendWithRetries,
	type Exchange,
	type RawResponse,
} from '../../nodes/Fliplet/transport/attempts';

// The attempt loop on its own: `sendWithRetries` takes the one send it repeats as a parameter, so
// a scripted send shows exactly what the loop decides and what it hands to `fail`.

/** One answer of the scripted server, or the failure of one attempt. */
export type Step =
	| RawResponse
	| { throws: unknown }
	| ((options: IHttpRequestOptions) => Promise<RawResponse>);

export const answer = (
	statusCode: number,
	body: unknown = {},
	headers: Record<string, unknown> = {},
): RawResponse => ({ statusCode, headers, body });

/** An error as n8n's HTTP client gives one: a code and a message, or both on its cause. */
export const networkError = (code: string | undefined, message: string, cause?: unknown) =>
	({ throws: Object.assign(new Error(message), { code, cause }) }) as const;

export interface Scripted {
	/** The options of every attempt sent, as they were when sent. */
	sent: IHttpRequestOptions[];
	/** What the loop handed to `fail`. */
	failures: IDataObject[];
	run: () => Promise<RawResponse>;
}

/** A GET of /v1/apps whose attempts meet `steps` in order; `overrides` change the exchange. */
export function scripted(steps: Step[], overrides: Partial<Exchange> = {}): Scripted {
	const sent: IHttpRequestOptions[] = [];
	const failures: IDataObject[] = [];
	const exchange: Exchange = {
		method: 'GET',
		options: { method: 'GET', baseURL: 'https://api.test', url: '/v1/apps', qs: { page: 1 } },
		idempotent: true,
		send: async (options) => {
			sent.push({ ...options });
			const step = steps.shift();
			if (step === undefined) throw new Error('the script has no more steps');
			if (typeof step === 'function') return await step(options);
			if ('throws' in step) throw step.throws;
			return step;
		},
		deadlineMs: 60_000,
		parseError: (response) => response.body,
		fail: (failure) => {
			failures.push(failure as IDataObject);
			return new Error('failed');
		},
		...overrides,
	};
	return { sent, failures, run: async () => await sendWithRetries(exchange) };
}

/** Runs the script to its failure and gives what the loop handed to `fail`. */
export async function failureOf(script: Scripted): Promise<IDataObject> {
	await expect(script.run()).rejects.toThrow('failed');
	expect(script.failures).toHaveLength(1);
	return script.failures[0];
}
