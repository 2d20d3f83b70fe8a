// Edges of the transport's pure helpers that other tests leave open: which URLs count as valid,
// how a failure's body, path and status shape the error, how multipart headers are quoted,
// which path segments are refused, how a 429's wait is read, and which messages mean a cut body.
import { isValidUrl } from '../../nodes/Fliplet/transport/baseUrl';
import { toNodeApiError, type ApiFailure } from '../../nodes/Fliplet/transport/errors';
import { JsonBody } from '../../nodes/Fliplet/transport/jsonBody';
import { buildMultipartBody } from '../../nodes/Fliplet/transport/multipart';
import {
	pathSegment,
	UnsendablePathSegmentError,
} from '../../nodes/Fliplet/transport/pathSegments';
import { header, isCutBody, rateLimitWaitMs } from '../../nodes/Fliplet/transport/retryPolicy';
import { timeoutKind } from '../../nodes/Fliplet/transport/timeouts';
import { stubNode } from '../harness/stubNode';

const node = stubNode();

const failed = (failure: Partial<ApiFailure>) =>
	toNodeApiError(node, {
		method: 'GET',
		path: '/v1/apps',
		attempts: 1,
		idempotent: true,
		...failure,
	});

const ID_OR_NAME =
	'Check the id or name. Data sources can be addressed by id or by name; the token must have access to it.';
const REFUSED = 'The API refused the request: check the fields of this item.';
const TOO_LARGE =
	'The request is larger than the API accepts. Send less in one request: fewer or smaller entries, values or files in this item.';
const WRONG_TYPE =
	"The API does not accept the type of what was sent. For a file, check the MIME type of the item's binary data.";

describe('a custom base URL', () => {
	it('is valid only when it parses with a host', () => {
		expect(isValidUrl('https://api.example.com')).toBe(true);
		expect(isValidUrl('https://')).toBe(false);
		expect(isValidUrl('not a url')).toBe(false);
	});
});

describe('the error built from an API failure', () => {
	it('ignores an API message that is not text', () => {
		const error = failed({ status: 500, body: { message: 42, error: true } });
		expect(error.message).toBe('The Fliplet API answered 500');
	});

	it('gives the security-rules advice only for a 400 or 403', () => {
		const error = failed({ status: 409, body: { type: 'datasource.access' } });
		expect(error.description).toBe(REFUSED);
	});

	it('gives the app hint for a 404 only when the path starts with /v1/apps/', () => {
		expect(failed({ status: 404, path: '/v2/v1/apps/3' }).description).toBe(ID_OR_NAME);
	});

	it('gives the notification hint for a 404 only when the path starts with /v1/apps/', () => {
		expect(failed({ status: 404, path: '/v2/v1/apps/3/notifications/9' }).description).toBe(
			ID_OR_NAME,
		);
	});

	it('speaks of audio for a 413 or 415 only on the exact transcription path', () => {
		for (const path of ['/v2/v1/apps/3/ai/audio', '/v1/apps/3/ai/audio/more']) {
			expect(failed({ status: 413, path }).description).toBe(TOO_LARGE);
			expect(failed({ status: 415, path }).description).toBe(WRONG_TYPE);
		}
	});

	it('drops only the trailing dots of the first cause, not dots inside it', () => {
		const error = failed({ status: 502, firstCause: 'HTTP/1.1 502 Bad Gateway...' });
		expect(error.description).toMatch(/ The first attempt met: HTTP\/1\.1 502 Bad Gateway\.$/);
	});

	it('keeps a body that is not an object as text', () => {
		expect(failed({ status: 500, body: 42 }).errorResponse?.body).toBe('42');
		expect(failed({ status: 500, body: true }).errorResponse?.body).toBe('true');
	});

	it('reports the failure status as the HTTP code, even a zero one', () => {
		expect(failed({ status: 0 }).httpCode).toBe('0');
		expect(failed({ status: 503 }).httpCode).toBe('503');
	});
});

describe('a JSON body', () => {
	it('does not keep the value when its text names no unsafe key', () => {
		const body = new JsonBody({ a: 1 }, '{"a":1}');
		expect(body.mayHoldUnsafeKey).toBe(false);
		expect(body.value).toBeUndefined();
	});
});

describe('a multipart body', () => {
	const file = (mimeType: string) => ({
		name: 'upload"x',
		fileName: 'my "photo".png',
		mimeType,
		data: Buffer.from('DATA'),
	});

	it('percent-encodes only quotes, backslashes and line breaks in names', () => {
		const { body } = buildMultipartBody(
			[{ name: 'a"b\\c\r\nd e', value: 'v' }],
			[file('image/png')],
		);
		const text = body.toString('latin1');
		expect(text).toContain('Content-Disposition: form-data; name="a%22b%5Cc%0D%0Ad e"\r\n');
		expect(text).toContain('name="upload%22x"; filename="my %22photo%22.png"\r\n');
	});

	it('trims the MIME type and falls back when only blanks are left', () => {
		expect(buildMultipartBody([], [file('  image/png  ')]).body.toString('latin1')).toContain(
			'\r\nContent-Type: image/png\r\n\r\n',
		);
		expect(buildMultipartBody([], [file('   ')]).body.toString('latin1')).toContain(
			'\r\nContent-Type: application/octet-stream\r\n\r\n',
		);
	});

	it('ends each file with a line break before the next boundary', () => {
		const { body, contentType } = buildMultipartBody([], [file('image/png')]);
		const boundary = contentType.split('boundary=')[1];
		expect(body.toString('latin1')).toMatch(
			new RegExp(`\\r\\n\\r\\nDATA\\r\\n--${boundary}--\\r\\n$`),
		);
	});

	it('has no unsafeKey property when nothing is unsafe', () => {
		const built = buildMultipartBody([{ name: 'a', value: '1' }], [file('image/png')]);
		expect(Object.keys(built).sort()).toEqual(['body', 'contentType']);
	});
});

describe('an unsendable path segment', () => {
	it('is refused with a message of its own when empty', () => {
		const error = new UnsendablePathSegmentError('');
		expect(error.message).toBe('An empty name or ID cannot be part of a request address');
		expect(error.name).toBe('UnsendablePathSegmentError');
		expect(() => pathSegment('')).toThrow(
			'An empty name or ID cannot be part of a request address',
		);
	});

	it('names a dot segment in its message', () => {
		const error = new UnsendablePathSegmentError('..');
		expect(error.message).toBe(
			'".." cannot be part of a request address: web addresses read it as a folder step',
		);
		expect(error.name).toBe('UnsendablePathSegmentError');
	});
});

describe('a response header', () => {
	it('is undefined when absent, null or undefined', () => {
		expect(header({}, 'retry-after')).toBeUndefined();
		expect(header({ 'Retry-After': null }, 'retry-after')).toBeUndefined();
		expect(header({ 'Retry-After': undefined }, 'retry-after')).toBeUndefined();
	});

	it('is read as text, whatever the case of its name', () => {
		expect(header({ 'Retry-After': 0 }, 'retry-after')).toBe('0');
		expect(header({ 'RETRY-AFTER': '5' }, 'retry-after')).toBe('5');
	});
});

describe('the wait a 429 asks for', () => {
	const now = Date.UTC(2024, 0, 1);

	it('reads Retry-After when there is no body', () => {
		for (const body of [null, undefined]) {
			const wait = rateLimitWaitMs(body, { 'Retry-After': '2' }, 0, now);
			expect(wait).toBeGreaterThanOrEqual(2000);
			expect(wait).toBeLessThanOrEqual(2100);
		}
	});

	it('ignores a nextValidRequestDate that is neither text nor a number', () => {
		for (const nextValidRequestDate of [null, true]) {
			const wait = rateLimitWaitMs({ nextValidRequestDate }, { 'Retry-After': '10' }, 0, now);
			expect(wait).toBeGreaterThanOrEqual(10_000);
			expect(wait).toBeLessThanOrEqual(10_100);
		}
	});

	it('backs off when no header is Retry-After, even one named "undefined"', () => {
		const wait = rateLimitWaitMs({}, { undefined: '30' }, 0, now);
		expect(wait).toBeGreaterThanOrEqual(150);
		expect(wait).toBeLessThanOrEqual(400);
	});
});

describe('a cut body', () => {
	it.each(['aborted', 'Aborted', 'terminated', 'TERMINATED'])('is meant by %p alone', (message) => {
		expect(isCutBody(undefined, message)).toBe(true);
	});

	it.each(['request aborted', 'aborted by the user', 'process terminated', 'terminated early'])(
		'is not meant by %p',
		(message) => {
			expect(isCutBody(undefined, message)).toBe(false);
		},
	);
});

describe('the timeout of a request', () => {
	it('is the AI one only for paths that start with /v1/apps/{id}/ai/', () => {
		expect(timeoutKind('/v1/apps/3/ai/chat')).toBe('ai');
		expect(timeoutKind('/v2/v1/apps/3/ai/chat')).toBe('data');
		expect(timeoutKind('/v1/communicate/v1/apps/3/ai/x')).toBe('communicate');
	});
});
