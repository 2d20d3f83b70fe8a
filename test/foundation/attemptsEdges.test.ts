/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// Waits (backoff, a 429's wait, a deadline) run 50 times shorter: these tests pin what the loop
// does and says, not how long it waits.
jest.mock('n8n-workflow', () =>
	require('../harness/fastWaits').withFastWaits(jest.requireActual('n8n-workflow')),
);

import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';

import {
	arrivalOf,
	flipletTestNodeDescription,
	publishApp11,
	apiRequests,
	registerNodeType,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';
import { flipletApiRequest, type FlipletRequest } from '../../nodes/Fliplet/transport';
import { RunEndedError, withRunScope } from '../../nodes/Fliplet/transport/abort';
import type { Exchange, RawResponse } from '../../nodes/Fliplet/transport/attempts';
import { RequestWindow } from '../../nodes/Fliplet/transport/pacing';
import { MAX_FAULT_RETRIES, MAX_RATE_LIMIT_WAITS } from '../../nodes/Fliplet/transport/retryPolicy';
import { MAX_SAME_ORIGIN_REDIRECTS } from '../../nodes/Fliplet/transport/redirects';
import { answer, failureOf, networkError, scripted } from '../harness/scriptedExchange';

const STOPPED = 'the execution was stopped, or the caller gave up on it';

// ---------------------------------------------------------------------------------------------
// The attempt loop on its own, with a scripted send (test/harness/scriptedExchange.ts).
// ---------------------------------------------------------------------------------------------

const post = (signal?: AbortSignal): Partial<Exchange> => ({
	method: 'POST',
	options: { method: 'POST', baseURL: 'https://api.test', url: '/v1/apps/11/publish' },
	idempotent: false,
	signal,
});

/** A step that aborts `controller` (with `reason`) on a later timer, then fails as `step` says. */
const thenAbort =
	(controller: AbortController, step: { throws: unknown } | RawResponse, reason?: unknown) =>
	async () => {
		// The first backoff is at least 3 ms here, and its timer is set after this one: the abort
		// comes while the loop waits to send again, whatever the load.
		setTimeout(() => controller.abort(reason), 0);
		if ('throws' in step) throw step.throws;
		return step;
	};

describe('what a failed attempt is reported as', () => {
	it("takes the code and message of the error's cause before its own", async () => {
		const failure = await failureOf(
			scripted([networkError('EOUTER', 'outer text', { code: 'EINNER', message: 'inner text' })]),
		);
		expect(failure).toEqual({
			networkCode: 'EINNER',
			networkMessage: 'inner text',
			networkKind: 'network',
			timeoutField: undefined,
			mayHaveBeenProcessed: undefined,
			attempts: 1,
			firstCause: undefined,
		});
	});

	it('falls back to the error itself when its cause says nothing', async () => {
		const failure = await failureOf(
			scripted([networkError('EOUTER', 'outer text', {})], { timeoutField: 'Data Timeout' }),
		);
		expect(failure).toMatchObject({
			networkCode: 'EOUTER',
			networkMessage: 'outer text',
			networkKind: 'network',
			timeoutField: 'Data Timeout',
		});
	});

	it('names an error with no message, and drops a code that is not text', async () => {
		// A write, so the failure is not retried ("network" in the name makes it a fault to a read).
		const failure = await failureOf(scripted([{ throws: { code: 42 } }], post()));
		expect(failure.networkCode).toBeUndefined();
		expect(failure.networkMessage).toBe('unknown network error');
		expect(failure.networkKind).toBe('network');
		expect(await failureOf(scripted([{ throws: null }], post()))).toMatchObject({
			networkMessage: 'unknown network error',
			attempts: 1,
		});
	});

	it("retries on the cause's code: a refused connection never reached the server", async () => {
		// The outer error alone is no fault; its cause is a refused connection, so even a POST goes again.
		const script = scripted(
			[
				networkError('EOUTER', 'outer text', { code: 'ECONNREFUSED', message: 'refused' }),
				answer(200),
			],
			post(),
		);
		expect((await script.run()).statusCode).toBe(200);
		expect(script.sent).toHaveLength(2);
	});

	it.each([
		['ETIMEDOUT', 'read failed', 'timeout'],
		['ECONNABORTED', 'read failed', 'timeout'],
		[undefined, 'Request TIMEOUT reached', 'timeout'],
		['ERR_STREAM_PREMATURE_CLOSE', 'read timeout', 'cut'],
		[undefined, 'aborted', 'cut'],
		['ECONNRESET', 'socket hang up', 'network'],
	])(
		'%s "%s" is a %s; a POST it met may have been processed and is not sent again',
		async (code, message, kind) => {
			const script = scripted([networkError(code, message)], post());
			const failure = await failureOf(script);
			expect(failure).toMatchObject({
				networkCode: code,
				networkMessage: message,
				networkKind: kind,
				mayHaveBeenProcessed: true,
				attempts: 1,
			});
			expect(script.sent).toHaveLength(1);
		},
	);

	it('a POST whose connection was refused every time: retried, and never said to be processed', async () => {
		const refused = networkError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9');
		const script = scripted(Array(MAX_FAULT_RETRIES + 2).fill(refused), post());
		const failure = await failureOf(script);
		expect(script.sent).toHaveLength(MAX_FAULT_RETRIES + 1);
		expect(failure).toMatchObject({
			attempts: MAX_FAULT_RETRIES + 1,
			mayHaveBeenProcessed: false,
			firstCause: undefined,
		});
	});

	it('an error that is no network fault is not retried, even for a GET', async () => {
		const script = scripted([networkError('EPROTO', 'bad record mac'), answer(200)]);
		expect(await failureOf(script)).toMatchObject({ networkCode: 'EPROTO', attempts: 1 });
		expect(script.sent).toHaveLength(1);
	});

	it('an attempt with no complete answer within the deadline is a timeout naming the deadline', async () => {
		// Never answers: only the deadline's abort ends it.
		const hang = (options: IHttpRequestOptions) =>
			new Promise<never>((_resolve, reject) => {
				const signal = options.abortSignal as AbortSignal;
				signal.addEventListener('abort', () => reject(new Error('aborted by the client')));
			});
		const script = scripted([hang], { ...post(), deadlineMs: 2000, timeoutField: 'Data Timeout' });
		expect(await failureOf(script)).toEqual({
			networkCode: 'ETIMEDOUT',
			networkMessage: 'no complete answer within 2 s',
			networkKind: 'timeout',
			timeoutField: 'Data Timeout',
			mayHaveBeenProcessed: true,
			attempts: 1,
			firstCause: undefined,
		});
	});
});

describe('what the first attempt met, when the last met something else', () => {
	it('is the first cause, not the one before the last', async () => {
		const failure = await failureOf(
			scripted([
				answer(503, { message: 'First' }),
				answer(502, { message: 'Second' }),
				answer(400, { message: 'Last' }),
			]),
		);
		expect(failure).toEqual({
			status: 400,
			body: { message: 'Last' },
			mayHaveBeenProcessed: undefined,
			attempts: 3,
			firstCause: 'HTTP 503: First',
		});
	});

	it('is left out when the last attempt met the same as the first, whatever came between', async () => {
		const failure = await failureOf(
			scripted([
				answer(503, { message: 'Down' }),
				answer(502, { message: 'Other' }),
				answer(503, { message: 'Down' }),
				answer(503, { message: 'Down' }),
			]),
		);
		expect(failure.attempts).toBe(MAX_FAULT_RETRIES + 1);
		expect(failure.firstCause).toBeUndefined();
	});

	it('is the status alone when the answer has no message as text', async () => {
		expect(await failureOf(scripted([answer(503, {}), answer(400)]))).toMatchObject({
			firstCause: 'HTTP 503',
		});
		expect(await failureOf(scripted([answer(503, { message: 7 }), answer(400)]))).toMatchObject({
			firstCause: 'HTTP 503',
		});
		expect(await failureOf(scripted([answer(503, 'Down'), answer(400)]))).toMatchObject({
			firstCause: 'HTTP 503',
		});
	});

	it('is the message of a network failure', async () => {
		const failure = await failureOf(
			scripted([networkError('ECONNRESET', 'socket hang up'), answer(404, { message: 'Gone' })]),
		);
		expect(failure).toMatchObject({ status: 404, attempts: 2, firstCause: 'socket hang up' });
	});

	it('a 500 is retried for a read; for a write it is the end, and may have been processed', async () => {
		const read = scripted([answer(500), answer(200, { ok: true })]);
		expect((await read.run()).body).toEqual({ ok: true });
		const write = scripted([answer(500, { message: 'Boom' }), answer(200)], post());
		expect(await failureOf(write)).toEqual({
			status: 500,
			body: { message: 'Boom' },
			mayHaveBeenProcessed: true,
			attempts: 1,
			firstCause: undefined,
		});
		expect(write.sent).toHaveLength(1);
	});

	it('a 4xx of a write is no sign it was processed', async () => {
		const failure = await failureOf(scripted([answer(499, { message: 'No' })], post()));
		expect(failure.mayHaveBeenProcessed).toBeUndefined();
	});
});

describe('a DELETE that finds nothing after an attempt that may have landed', () => {
	const del: Partial<Exchange> = {
		method: 'DELETE',
		options: { method: 'DELETE', baseURL: 'https://api.test', url: '/v1/things/1' },
		idempotent: true,
	};

	it('after a reset connection (it may have reached the server): done', async () => {
		const script = scripted([networkError('ECONNRESET', 'socket hang up'), answer(404)], del);
		expect(await script.run()).toEqual({ statusCode: 200, headers: {}, body: {} });
	});

	it('after a refused connection (it never reached the server): the 404 stands', async () => {
		const script = scripted([networkError('ECONNREFUSED', 'refused'), answer(404)], del);
		expect(await failureOf(script)).toMatchObject({ status: 404, attempts: 2 });
	});

	it('on the first attempt: the 404 stands', async () => {
		expect(await failureOf(scripted([answer(404)], del))).toMatchObject({ status: 404 });
	});
});

describe('redirects in the loop', () => {
	const to = (location: string | undefined, status = 302) =>
		answer(status, {}, location === undefined ? {} : { Location: location });

	it('a relative Location resolves against the full URL, without the base URL trailing slash', async () => {
		const script = scripted([to('next?page=2'), answer(200, { ok: true })], {
			options: { method: 'GET', baseURL: 'https://api.test/', url: '/v1/apps', qs: { page: 1 } },
		});
		expect((await script.run()).body).toEqual({ ok: true });
		expect(script.sent[1]).toMatchObject({
			baseURL: 'https://api.test',
			url: '/v1/next?page=2',
			qs: undefined,
		});
	});

	it('a 300 is a redirect; a 400 with a Location is not', async () => {
		const followed = scripted([to('/v1/other', 300), answer(200)]);
		expect((await followed.run()).statusCode).toBe(200);
		expect(followed.sent.map((options) => options.url)).toEqual(['/v1/apps', '/v1/other']);
		const refused = await failureOf(scripted([to('/v1/other', 400)]));
		expect(refused).toMatchObject({ status: 400, attempts: 1 });
		expect(refused.redirectedTo).toBeUndefined();
	});

	it('a redirect followed is no attempt: the error after it counts one', async () => {
		const failure = await failureOf(scripted([to('/v1/other'), answer(400, { message: 'No' })]));
		expect(failure).toMatchObject({ status: 400, attempts: 1 });
	});

	it('without a Location: not followed, and the error says the target is unknown', async () => {
		expect(await failureOf(scripted([to(undefined, 307)]))).toEqual({
			status: 307,
			redirectedTo: 'an unknown address',
			attempts: 1,
			firstCause: undefined,
		});
	});

	it('to another origin: not followed, and the error names that origin', async () => {
		const script = scripted([to('https://elsewhere.test/v1/apps')]);
		expect(await failureOf(script)).toMatchObject({
			status: 302,
			redirectedTo: 'https://elsewhere.test',
		});
		expect(script.sent).toHaveLength(1);
	});

	it(`stops following after ${MAX_SAME_ORIGIN_REDIRECTS} redirects within the origin`, async () => {
		const script = scripted(Array.from({ length: 6 }, (_, n) => to(`/v1/hop${n}`)));
		expect(await failureOf(script)).toMatchObject({
			status: 302,
			redirectedTo: 'https://api.test',
			attempts: 1,
		});
		expect(script.sent).toHaveLength(MAX_SAME_ORIGIN_REDIRECTS + 1);
	});
});

describe('429 in the loop', () => {
	const refused = () => answer(429, { message: 'Slow down' }, { 'Retry-After': '0' });

	it(`gives up after ${MAX_RATE_LIMIT_WAITS} waits with nothing served in between`, async () => {
		const script = scripted(Array.from({ length: MAX_RATE_LIMIT_WAITS + 3 }, refused));
		expect(await failureOf(script)).toMatchObject({
			status: 429,
			attempts: MAX_RATE_LIMIT_WAITS + 1,
			firstCause: undefined,
		});
		expect(script.sent).toHaveLength(MAX_RATE_LIMIT_WAITS + 1);
	});

	it('keeps waiting while other requests of its window are served in between', async () => {
		const window = new RequestWindow({ limit: 100, windowMs: 10_000 });
		// Its hold would make each wait last its full time here (it is read from the clock).
		window.hold = () => undefined;
		const refusedWhileOthersServed = async () => {
			window.served++;
			return refused();
		};
		const count = MAX_RATE_LIMIT_WAITS + 4;
		const script = scripted(
			[...Array.from({ length: count }, () => refusedWhileOthersServed), answer(200)],
			{ window },
		);
		expect((await script.run()).statusCode).toBe(200);
		expect(script.sent).toHaveLength(count + 1);
	});

	it('a refusal is waited out for a write too, and the wait holds its window', async () => {
		const window = new RequestWindow({ limit: 100, windowMs: 10_000 });
		const before = Date.now();
		const script = scripted([refused(), answer(201)], { ...post(), window });
		expect((await script.run()).statusCode).toBe(201);
		expect(script.sent).toHaveLength(2);
		expect(window.holdEnds).toBeGreaterThanOrEqual(before + 50);
		expect(window.served).toBe(1);
	});
});

describe('a stop ends the loop and says where it found the request', () => {
	it('waiting for a place in its window: nothing is sent, and nothing may have been processed', async () => {
		const window = new RequestWindow({ limit: 100, windowMs: 10_000 });
		window.hold(Date.now() + 600_000);
		const controller = new AbortController();
		const script = scripted([answer(200)], { ...post(controller.signal), window });
		setTimeout(() => controller.abort(), 0);
		expect(await failureOf(script)).toEqual({
			networkKind: 'cancelled',
			networkMessage: STOPPED,
			mayHaveBeenProcessed: undefined,
			attempts: 0,
			firstCause: undefined,
		});
		expect(script.sent).toHaveLength(0);
	});

	it('on its way: a write may have been processed, a read is not said to be', async () => {
		const onTheWay = (controller: AbortController) => async () => {
			controller.abort();
			throw new Error('aborted');
		};
		const writer = new AbortController();
		expect(await failureOf(scripted([onTheWay(writer)], post(writer.signal)))).toMatchObject({
			networkKind: 'cancelled',
			mayHaveBeenProcessed: true,
			attempts: 1,
		});
		const reader = new AbortController();
		expect(await failureOf(scripted([onTheWay(reader)], { signal: reader.signal }))).toMatchObject({
			networkKind: 'cancelled',
			mayHaveBeenProcessed: undefined,
			attempts: 1,
		});
	});

	it('the run that sent it ended: the error says so', async () => {
		const controller = new AbortController();
		const script = scripted(
			[
				async () => {
					controller.abort(new RunEndedError());
					throw new Error('aborted');
				},
			],
			{ signal: controller.signal },
		);
		expect(await failureOf(script)).toMatchObject({
			networkKind: 'cancelled',
			networkMessage: 'the run that sent the request has ended',
		});
	});

	it('in the backoff after a network fault: not sent again, and the first cause is named', async () => {
		const controller = new AbortController();
		const script = scripted(
			[thenAbort(controller, networkError('ECONNRESET', 'socket hang up')), answer(200)],
			{ signal: controller.signal },
		);
		expect(await failureOf(script)).toEqual({
			networkKind: 'cancelled',
			networkMessage: STOPPED,
			mayHaveBeenProcessed: undefined,
			attempts: 1,
			firstCause: 'socket hang up',
		});
		expect(script.sent).toHaveLength(1);
	});

	it('in the backoff of a write whose connection was refused: nothing may have been processed', async () => {
		const controller = new AbortController();
		const script = scripted(
			[thenAbort(controller, networkError('ECONNREFUSED', 'refused')), answer(200)],
			post(controller.signal),
		);
		expect(await failureOf(script)).toMatchObject({
			networkKind: 'cancelled',
			mayHaveBeenProcessed: undefined,
			attempts: 1,
			firstCause: 'refused',
		});
		expect(script.sent).toHaveLength(1);
	});

	it('in the backoff after a 503: not sent again', async () => {
		const controller = new AbortController();
		const script = scripted(
			[thenAbort(controller, answer(503, { message: 'Down' }), new RunEndedError()), answer(200)],
			{ signal: controller.signal },
		);
		expect(await failureOf(script)).toEqual({
			networkKind: 'cancelled',
			networkMessage: 'the run that sent the request has ended',
			mayHaveBeenProcessed: undefined,
			attempts: 1,
			firstCause: 'HTTP 503: Down',
		});
		expect(script.sent).toHaveLength(1);
	});

	it('in the wait after a 429 of a write: it was refused, so nothing may have been processed', async () => {
		const controller = new AbortController();
		const tooMany = answer(429, { message: 'Slow down' }, { 'Retry-After': '30' });
		const script = scripted([thenAbort(controller, tooMany), answer(200)], post(controller.signal));
		expect(await failureOf(script)).toMatchObject({
			networkKind: 'cancelled',
			mayHaveBeenProcessed: undefined,
			attempts: 1,
			firstCause: 'HTTP 429: Slow down',
		});
		expect(script.sent).toHaveLength(1);
	});
});

// ---------------------------------------------------------------------------------------------
// Through the engine: a node that sends one request as its test sets it, and outputs the answer
// or the error it met.
// ---------------------------------------------------------------------------------------------

const sandbox = useSandbox();

let nextRequest: FlipletRequest = { method: 'GET', path: '/v1/apps' };
/** Set: the request is sent within a run scope that ends once this settles. */
let scopeEndsWhen: Promise<unknown> | undefined;

class OneRequest implements INodeType {
	description = flipletTestNodeDescription(
		'oneRequest',
		'One Request',
		'Sends the request its test sets',
	);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		let sent!: Promise<unknown>;
		const send = () => flipletApiRequest.call(this, { itemIndex: 0, ...nextRequest });
		if (scopeEndsWhen) {
			const ends = scopeEndsWhen;
			await withRunScope(this, async () => {
				sent = send();
				await ends;
			});
		} else {
			sent = send();
		}
		try {
			const answer = (await sent) as IDataObject | Buffer;
			return [[{ json: { answer: Buffer.isBuffer(answer) ? answer.toString('utf8') : answer } }]];
		} catch (caught) {
			const error = caught as Error & { description?: string; httpCode?: string };
			return [
				[
					{
						json: {
							message: error.message,
							description: error.description ?? null,
							httpCode: error.httpCode ?? null,
						},
					},
				],
			];
		}
	}
}
registerNodeType('test.oneRequest', () => new OneRequest());

/** The credential of the sandbox, with a long data timeout: waits here are 50 times shorter. */
function credential(timeoutSeconds = 300) {
	const { flipletApi } = sandboxCredential(sandbox(), TOKENS.org);
	return { flipletApi: { ...flipletApi, timeout: timeoutSeconds } };
}

async function send(request: FlipletRequest, credentials = credential()): Promise<IDataObject> {
	nextRequest = request;
	try {
		const result = await runNode({ nodeType: 'test.oneRequest', parameters: {}, credentials });
		expect(result.error).toBeUndefined();
		return result.json[0];
	} finally {
		nextRequest = { method: 'GET', path: '/v1/apps' };
		scopeEndsWhen = undefined;
	}
}

const UNKNOWN_OUTCOME =
	'The request may already have been processed, so it was not sent again automatically (that could duplicate it). Check the result in Fliplet before running this item again.';

describe('through the engine', () => {
	it("an error answer to a binary request is read as JSON: the API's message is the error", async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			body: { message: 'Export refused' },
			path: '^/v1/apps$',
		});
		const output = await send({ method: 'GET', path: '/v1/apps', binaryResponse: true });
		expect(output).toEqual({
			message: 'Export refused',
			description: 'The API refused the request: check the fields of this item.',
			httpCode: '400',
		});
	});

	it('an empty answer (as a 204 has) reads as an empty object', async () => {
		sandbox().injectFault({ mode: 'status-before', status: 200, body: Buffer.alloc(0) });
		expect(await send({ method: 'GET', path: '/v1/apps' })).toEqual({ answer: {} });
	});

	it('a JSON array answer comes back as it is, whatever it holds', async () => {
		sandbox().injectFault({ mode: 'status-before', status: 200, body: [5] });
		expect(await send({ method: 'GET', path: '/v1/apps' })).toEqual({ answer: [5] });
	});

	it("an error answer that is not JSON keeps its words in the error's response", async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			body: Buffer.from('Refused by the proxy'),
			path: '^/v1/apps$',
		});
		const result = await runNode({
			parameters: { resource: 'app', operation: 'getMany', returnAll: true },
			credentials: credential(),
		});
		expect(result.error?.httpCode).toBe('400');
		expect((result.error as { errorResponse?: IDataObject }).errorResponse?.body).toBe(
			'Refused by the proxy',
		);
	});

	it('asks for JSON, sends JSON as JSON and adds the headers the caller gives', async () => {
		await send({
			method: 'POST',
			path: '/v1/apps/11/publish',
			body: { release: { type: 'forced', changelog: 'Hotfix' } },
			headers: { 'X-Request-Purpose': 'test' },
		});
		const [publish] = apiRequests(sandbox(), /publish$/);
		expect(publish.headers.accept).toBe('application/json');
		expect(publish.headers['content-type']).toBe('application/json');
		expect(publish.headers['x-request-purpose']).toBe('test');
	});

	it('asks for JSON also when the answer is read as bytes (an error answer is JSON)', async () => {
		await send({ method: 'GET', path: '/v1/apps', binaryResponse: true });
		expect(apiRequests(sandbox(), /^\/v1\/apps$/)[0].headers.accept).toBe('application/json');
	});

	it('a binary answer comes back as its bytes', async () => {
		const output = await send({ method: 'GET', path: '/v1/apps', binaryResponse: true });
		expect(JSON.parse(output.answer as string)).toHaveProperty('apps');
	});

	/**
	 * The publish timed out and is never sent again. (Waits here are 50 times shorter, the deadline
	 * too, so on a busy machine the request may reach the sandbox only after the node gave up: wait
	 * for it, so it cannot land in the next test.)
	 */
	async function expectPublishSentAtMostOnce() {
		const until = Date.now() + 5_000;
		while (apiRequests(sandbox(), /publish$/).length === 0 && Date.now() < until) {
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		const sent = apiRequests(sandbox(), /publish$/);
		expect(sent.length).toBeLessThanOrEqual(1);
		await Promise.all(sent.map((request) => request.closed));
		for (const request of sent) expect(request.abandoned).toBe(true);
	}

	it("a request's own timeout: the error names no credential field", async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 30_000, method: 'POST' });
		const output = await send({
			method: 'POST',
			path: '/v1/apps/11/publish',
			body: { release: { type: 'forced', changelog: 'Hotfix' } },
			timeout: 1000,
		});
		expect(output).toEqual({
			message: 'Fliplet API timeout: no complete answer within 1 s',
			description: `Check the network and the credential's region or base URL. ${UNKNOWN_OUTCOME}`,
			httpCode: null,
		});
		await expectPublishSentAtMostOnce();
	});

	it('the timeout of the credential: the error names its field', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 30_000, method: 'POST' });
		const output = await send(
			{
				method: 'POST',
				path: '/v1/apps/11/publish',
				body: { release: { type: 'forced', changelog: 'Hotfix' } },
			},
			credential(1),
		);
		expect(output.description).toBe(
			`Check the network and the credential's region or base URL; a slow link or a large answer may need a longer "Data Timeout (Seconds)" in the credential's Advanced Settings. ${UNKNOWN_OUTCOME}`,
		);
		await expectPublishSentAtMostOnce();
	});

	it('a request still on its way when its run ends is canceled, saying the run ended', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 30_000, path: '^/v1/apps$' });
		scopeEndsWhen = arrivalOf(sandbox(), /^\/v1\/apps$/);
		const output = await send({ method: 'GET', path: '/v1/apps' });
		expect(output).toEqual({
			message:
				'The request to the Fliplet API was canceled: the run that sent the request has ended',
			description: 'It was not sent again.',
			httpCode: null,
		});
		const requests = apiRequests(sandbox(), /^\/v1\/apps$/);
		expect(requests).toHaveLength(1);
		await requests[0].closed;
		expect(requests[0].abandoned).toBe(true);
	});

	it('a write on its way when the execution is stopped may have been processed', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 30_000, method: 'POST' });
		const arrived = arrivalOf(sandbox(), /publish$/);
		const result = await runNode({
			parameters: publishApp11,
			credentials: credential(),
			whileRunning: (stop) => void arrived.then(stop),
		});
		expect(result.status).toBe('canceled');
		expect(result.error?.message).toBe(`The request to the Fliplet API was canceled: ${STOPPED}`);
		// Publish adds what to check before sending it again.
		expect(result.error?.description).toMatch(
			new RegExp(`^It was not sent again\\. ${UNKNOWN_OUTCOME.replace(/[.()]/g, '\\$&')} `),
		);
		const requests = apiRequests(sandbox());
		expect(requests).toHaveLength(1);
		await requests[0].closed;
	});
});
