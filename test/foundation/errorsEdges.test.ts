/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { redact, toNodeApiError, type ApiFailure } from '../../nodes/Fliplet/transport/errors';
import { stubNode } from '../harness/stubNode';

const node = stubNode();

const CHECK = "Check the network and the credential's region or base URL.";
const UNKNOWN_OUTCOME =
	' The request may already have been processed, so it was not sent again automatically (that could duplicate it). Check the result in Fliplet before running this item again.';
const sentTimes = (n: number) =>
	`The request was sent ${n} times, with backoff in between, before giving up.`;

const read = (failure: Partial<ApiFailure>, secret?: string) =>
	toNodeApiError(
		node,
		{ method: 'GET', path: '/v1/apps', attempts: 1, idempotent: true, ...failure },
		secret,
	);
const write = (failure: Partial<ApiFailure>) =>
	read({ method: 'POST', path: '/v1/apps/11/publish', idempotent: false, ...failure });

describe('a failure with no answer', () => {
	it('without a message: the connection failed, sent once', () => {
		const error = read({ networkKind: 'network' });
		expect(error.message).toBe('Could not reach the Fliplet API: the connection failed');
		expect(error.description).toBe(`${CHECK} The request was sent once.`);
		expect(error.httpCode).toBeNull();
		expect(error.errorResponse).toEqual({
			status: null,
			method: 'GET',
			path: '/v1/apps',
			attempts: 1,
			body: {},
		});
	});

	it('a read sent twice: counted in the message and the description', () => {
		const error = read({ networkKind: 'network', networkMessage: 'socket hang up', attempts: 2 });
		expect(error.message).toBe(
			'Could not reach the Fliplet API: socket hang up (after 2 attempts)',
		);
		expect(error.description).toBe(`${CHECK} ${sentTimes(2)}`);
	});

	it('a write retried after refused connections: the count, and no unknown outcome', () => {
		const error = write({
			networkKind: 'network',
			networkMessage: 'connect ECONNREFUSED',
			attempts: 4,
			mayHaveBeenProcessed: false,
		});
		expect(error.message).toBe(
			'Could not reach the Fliplet API: connect ECONNREFUSED (after 4 attempts)',
		);
		expect(error.description).toBe(`${CHECK} ${sentTimes(4)}`);
		expect(error.errorResponse).toMatchObject({ mayHaveBeenProcessed: false });
	});

	it('a write sent once that may have landed: no count, the unknown outcome', () => {
		const error = write({
			networkKind: 'cut',
			networkMessage: 'stream has been aborted',
			mayHaveBeenProcessed: true,
		});
		expect(error.message).toBe(
			"The Fliplet API's answer was cut off mid-way: stream has been aborted",
		);
		expect(error.description).toBe(`${CHECK}${UNKNOWN_OUTCOME}`);
		expect(error.errorResponse).toMatchObject({ mayHaveBeenProcessed: true });
	});

	it('a timeout names the credential field only when there is one, and only for a timeout', () => {
		const withField = read({
			networkKind: 'timeout',
			networkMessage: 'no complete answer within 1 s',
			timeoutField: 'Data Timeout (Seconds)',
		});
		expect(withField.message).toBe('Fliplet API timeout: no complete answer within 1 s');
		expect(withField.description).toBe(
			`Check the network and the credential's region or base URL; a slow link or a large answer may need a longer "Data Timeout (Seconds)" in the credential's Advanced Settings. The request was sent once.`,
		);
		expect(read({ networkKind: 'timeout', networkMessage: 'x' }).description).toBe(
			`${CHECK} The request was sent once.`,
		);
		expect(
			read({ networkKind: 'network', networkMessage: 'x', timeoutField: 'Data Timeout (Seconds)' })
				.description,
		).toBe(`${CHECK} The request was sent once.`);
	});

	it('canceled: says why, and whether it may have been processed', () => {
		const canceled = write({ networkKind: 'cancelled', networkMessage: 'the run ended' });
		expect(canceled.message).toBe('The request to the Fliplet API was canceled: the run ended');
		expect(canceled.description).toBe('It was not sent again.');
		expect(canceled.errorResponse).not.toHaveProperty('mayHaveBeenProcessed');
		const onItsWay = write({ networkKind: 'cancelled', mayHaveBeenProcessed: true });
		expect(onItsWay.message).toBe(
			'The request to the Fliplet API was canceled: the connection failed',
		);
		expect(onItsWay.description).toBe(`It was not sent again.${UNKNOWN_OUTCOME}`);
	});
});

describe('what the first attempt met', () => {
	it('ends the description as one sentence, and is kept in the response', () => {
		const error = read({
			status: 400,
			body: { message: 'Bad' },
			attempts: 2,
			firstCause: 'HTTP 503: Down...',
		});
		expect(error.message).toBe('Bad (after 2 attempts)');
		expect(error.description).toBe(
			'The API refused the request: check the fields of this item. The first attempt met: HTTP 503: Down.',
		);
		expect(error.errorResponse).toMatchObject({ firstCause: 'HTTP 503: Down...', attempts: 2 });
	});

	it('the token in it is redacted', () => {
		const secret = 'eu--Secret-Token-123';
		const error = read({ status: 400, attempts: 2, firstCause: `token ${secret} refused` }, secret);
		expect(error.description).toMatch(/The first attempt met: token \[redacted\] refused\.$/);
		expect(error.errorResponse).toMatchObject({ firstCause: 'token [redacted] refused' });
	});
});

describe('answers with a status', () => {
	it('a 404 of a notification: check its id, then the app', () => {
		const description = read({ status: 404, path: '/v1/apps/11/notifications/42' }).description;
		expect(description).toMatch(
			/^Check the notification ID\(s\): Get Many lists the app's notifications, and a deleted one is gone\. If the app is the problem: API tokens only reach published apps/,
		);
	});

	it.each(['/v1/apps/11/notifications', '/v1/apps/11/notifications/42/extra', '/v1/apps/11'])(
		'a 404 of %s: the app hint alone',
		(path) => {
			expect(read({ status: 404, path }).description).toMatch(
				/^API tokens only reach published apps/,
			);
		},
	);

	it('a 404 elsewhere: check the id or name', () => {
		expect(read({ status: 404, path: '/v1/data-sources/9' }).description).toMatch(
			/^Check the id or name\./,
		);
	});

	it('a 429 without a message: too many requests, with the count', () => {
		const error = read({ status: 429, body: {}, attempts: 9 });
		expect(error.message).toBe('Rate limit reached: too many requests (after 9 attempts)');
		expect(error.httpCode).toBe('429');
	});

	it('a 429 with an error field: it is the message', () => {
		expect(read({ status: 429, body: { error: 'Slow down' } }).message).toBe(
			'Rate limit reached: Slow down',
		);
		expect(read({ status: 429, body: { message: '', error: 'Slow down' } }).message).toBe(
			'Rate limit reached: Slow down',
		);
	});

	it('a 5xx of a read says how often it was sent; of a write, whether it may have landed', () => {
		expect(read({ status: 500, attempts: 4 }).description).toBe(
			`The Fliplet API failed. ${sentTimes(4)} Try again later.`,
		);
		expect(read({ status: 500 }).description).toBe(
			'The Fliplet API failed. The request was sent once. Try again later.',
		);
		expect(write({ status: 500, mayHaveBeenProcessed: true }).description).toBe(
			`The Fliplet API failed.${UNKNOWN_OUTCOME}`,
		);
		expect(write({ status: 500 }).description).toBe('The Fliplet API failed.');
	});

	it('a 4xx below 500 is a refusal of the fields', () => {
		const error = read({ status: 499 });
		expect(error.message).toBe('The Fliplet API answered 499');
		expect(error.description).toBe('The API refused the request: check the fields of this item.');
	});

	it('a redirect names where it pointed', () => {
		const error = read({ status: 302, redirectedTo: 'https://elsewhere.test', attempts: 1 });
		expect(error.message).toBe(
			'The Fliplet API redirected the request to https://elsewhere.test; the redirect was not followed',
		);
		expect(error.httpCode).toBe('302');
	});

	it('a body that is not an object is kept as text', () => {
		expect(read({ status: 400, body: 'plain text' }).errorResponse).toMatchObject({
			status: 400,
			body: 'plain text',
		});
		expect(read({ status: 400, body: null }).errorResponse).toMatchObject({ body: 'null' });
	});
});

describe('redact', () => {
	it('redacts a secret of four characters or more, trimmed', () => {
		expect(redact('a abcd b abcd', ' abcd ')).toBe('a [redacted] b [redacted]');
		expect(redact('a abc b', 'abc')).toBe('a abc b');
		expect(redact('a abc b', undefined)).toBe('a abc b');
		expect(redact('a   b', '   ')).toBe('a   b');
	});
});
