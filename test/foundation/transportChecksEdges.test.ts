// The edges of the transport's pure checks, tested directly: redirect targets, unsafe keys, the
// base URL of a credential and how long a refusal is waited out.
import {
	isSafeBaseUrl,
	regionFromToken,
	resolveBaseUrl,
} from '../../nodes/Fliplet/transport/baseUrl';
import {
	MAX_SAME_ORIGIN_REDIRECTS,
	mayFollowRedirect,
	redirectTarget,
} from '../../nodes/Fliplet/transport/redirects';
import {
	backoffMs,
	MAX_SINGLE_WAIT_MS,
	rateLimitWaitMs,
} from '../../nodes/Fliplet/transport/retryPolicy';
import {
	findUnsafeFormKey,
	findUnsafeKey,
	mayHoldUnsafeKey,
	unsafeKeyInFieldName,
} from '../../nodes/Fliplet/transport/unsafeKeys';

describe('redirect targets', () => {
	const FROM = 'https://api.fliplet.com/v1/apps?x=1';

	it('reads Location in any case, resolved against the request', () => {
		expect(redirectTarget({ Location: '/v1/apps/2' }, FROM)?.href).toBe(
			'https://api.fliplet.com/v1/apps/2',
		);
		expect(redirectTarget({ LOCATION: 'https://other.example/x' }, FROM)?.href).toBe(
			'https://other.example/x',
		);
	});

	it.each([
		['no headers', undefined],
		['no Location', { 'content-type': 'text/html' }],
		['an empty Location', { location: '' }],
		['a Location that is not text', { location: ['/a', '/b'] }],
		['a Location that is no address', { location: 'http://[not-an-address' }],
	])('has none with %s', (_label, headers) => {
		expect(redirectTarget(headers as unknown as Record<string, unknown>, FROM)).toBeUndefined();
	});

	it('follows only a GET, only on the same origin, only three times', () => {
		const same = new URL('https://api.fliplet.com/v1/x');
		const origin = 'https://api.fliplet.com';
		expect(MAX_SAME_ORIGIN_REDIRECTS).toBe(3);
		expect(mayFollowRedirect(same, origin, 'GET', 0)).toBe(true);
		expect(mayFollowRedirect(same, origin, 'GET', 2)).toBe(true);
		expect(mayFollowRedirect(same, origin, 'GET', 3)).toBe(false);
		expect(mayFollowRedirect(same, origin, 'POST', 0)).toBe(false);
		expect(mayFollowRedirect(same, origin, 'get', 0)).toBe(false);
		expect(mayFollowRedirect(new URL('http://api.fliplet.com/v1/x'), origin, 'GET', 0)).toBe(false);
		expect(mayFollowRedirect(new URL('https://api.fliplet.com:444/'), origin, 'GET', 0)).toBe(
			false,
		);
	});
});

describe('unsafe keys: edges', () => {
	const parsed = (json: string) => JSON.parse(json) as unknown;

	it('finds a __proto__ at the top whatever it holds, even a plain value', () => {
		expect(findUnsafeKey(parsed('{"a": 1, "__proto__": 1}'))).toBe('__proto__');
		expect(findUnsafeKey(parsed('{"__proto__": "x"}'))).toBe('__proto__');
		expect(findUnsafeKey(parsed('{"constructor": {"prototype": 1}}'))).toBe('constructor');
	});

	it('names paths from a top-level list, and finds the first key in document order', () => {
		expect(findUnsafeKey(parsed('[1, {"__proto__": {}}]'))).toBe('[1].__proto__');
		expect(findUnsafeKey(parsed('[{"__proto__": 1}, {"__proto__": 2}]'))).toBe('[0].__proto__');
		expect(findUnsafeKey(parsed('{"a": {"__proto__": 1}, "b": {"__proto__": 2}}'))).toBe(
			'a.__proto__',
		);
		expect(findUnsafeKey(parsed('{"a": [[{"b": {"__proto__": 1}}]]}'))).toBe('a[0][0].b.__proto__');
		// Keys of an object are looked at before what its values hold.
		expect(findUnsafeKey(parsed('{"a": {"__proto__": 1}, "__proto__": 2}'))).toBe('__proto__');
	});

	it('passes nulls, plain values, lists of plain values and inherited keys', () => {
		expect(findUnsafeKey(null)).toBeUndefined();
		expect(findUnsafeKey('{"__proto__": 1}')).toBeUndefined();
		expect(findUnsafeKey({ a: null, b: [null, 1, 'x'], c: { d: null } })).toBeUndefined();
		expect(findUnsafeKey([1, 'two', null])).toBeUndefined();
		const inherited = Object.create({ nested: { deep: true } }) as Record<string, unknown>;
		inherited.own = 1;
		expect(findUnsafeKey(inherited)).toBeUndefined();
	});

	it('looks at a JSON text for the keys only where they are keys', () => {
		expect(mayHoldUnsafeKey('{"__proto__":1}')).toBe(true);
		expect(mayHoldUnsafeKey('{"a":{"constructor":{}}}')).toBe(true);
		expect(mayHoldUnsafeKey('{"a":"__proto__"}')).toBe(false);
		expect(mayHoldUnsafeKey('{"my__proto__":1}')).toBe(false);
		expect(mayHoldUnsafeKey('{"constructors":1}')).toBe(false);
	});

	it('reads a field name with no step as ordinary', () => {
		expect(unsafeKeyInFieldName('')).toBeUndefined();
		expect(unsafeKeyInFieldName('[].')).toBeUndefined();
		expect(unsafeKeyInFieldName('constructor.x.prototype')).toBeUndefined();
		expect(unsafeKeyInFieldName('x[constructor].prototype')).toBe('x[constructor].prototype');
	});

	it('looks at every field of a form until one is unsafe', () => {
		expect(
			findUnsafeFormKey([
				{ name: 'Plain', value: 'text' },
				{ name: 'Broken', value: '{"__proto__": ' },
				{ name: 'Harmless', value: '{"constructor": "x"}' },
				{ name: 'Tags', value: '{"x": {"__proto__": 1}}' },
				{ name: '__proto__', value: '' },
			]),
		).toBe('Tags.x.__proto__');
		expect(
			findUnsafeFormKey([
				{ name: 'Plain', value: '1' },
				{ name: 'a[__proto__]', value: '' },
			]),
		).toBe('a[__proto__]');
		expect(findUnsafeFormKey([{ name: 'Plain', value: '{"constructor": "x"}' }])).toBeUndefined();
		expect(findUnsafeFormKey([])).toBeUndefined();
	});
});

describe('base URL: edges', () => {
	it.each([
		[{ region: 'auto' }, 'https://api.fliplet.com'],
		[{}, 'https://api.fliplet.com'],
	] as const)('%j without a token resolves to %s', (credentials, url) => {
		expect(resolveBaseUrl(credentials)).toEqual({ url });
	});

	it('reads the region from the first four characters of the token only', () => {
		expect(regionFromToken('US--abc')).toBe('us');
		expect(regionFromToken('  ca--x')).toBe('ca');
		expect(regionFromToken('us-x')).toBe('eu');
		expect(regionFromToken('xus--abc')).toBe('eu');
		expect(regionFromToken('')).toBe('eu');
	});

	it('refuses a custom region whose base URL was never set', () => {
		expect(resolveBaseUrl({ region: 'custom', accessToken: 'eu--abc' })).toEqual({
			error: 'The credential uses a custom base URL but none is set',
		});
		expect(resolveBaseUrl({ region: 'custom', baseUrl: ' // ' })).toEqual({
			error: 'The credential uses a custom base URL but none is set',
		});
	});

	it.each([
		[' https://proxy.example.com/api/// ', 'https://proxy.example.com/api'],
		['HTTPS://proxy.example.com', 'HTTPS://proxy.example.com'],
		['http://127.0.0.1:5678/', 'http://127.0.0.1:5678'],
		['http://localhost', 'http://localhost'],
		['http://LOCALHOST:80/v1', 'http://LOCALHOST:80/v1'],
		['http://[::1]:8080', 'http://[::1]:8080'],
	])('accepts the custom base URL %j as %j', (baseUrl, url) => {
		expect(resolveBaseUrl({ region: 'custom', baseUrl, accessToken: 'us--abc' })).toEqual({ url });
	});

	it('counts only https, or http to this machine, as safe', () => {
		expect(isSafeBaseUrl('https://a.example')).toBe(true);
		expect(isSafeBaseUrl('http://127.0.0.1')).toBe(true);
		expect(isSafeBaseUrl('http://localhost:1/x')).toBe(true);
		expect(isSafeBaseUrl('http://localhostx')).toBe(false);
		expect(isSafeBaseUrl('http://127.0.0.1x')).toBe(false);
		expect(isSafeBaseUrl('http://127.0.0.1:80x')).toBe(false);
		expect(isSafeBaseUrl('xhttps://a.example')).toBe(false);
		expect(isSafeBaseUrl('x http://127.0.0.1')).toBe(false);
	});

	it('refuses an https address with no host', () => {
		expect(resolveBaseUrl({ region: 'custom', baseUrl: 'https://:443/' })).toEqual({
			error: 'The custom base URL "https://:443" is not a valid address',
		});
	});
});

describe('waits: exact values with the jitter pinned', () => {
	const NOW = Date.parse('2026-01-05T09:00:00.000Z');
	let random: jest.SpyInstance;
	beforeEach(() => {
		random = jest.spyOn(Math, 'random').mockReturnValue(0);
	});
	afterEach(() => random.mockRestore());

	it('backs off from half the ceiling to all of it, the ceiling doubling up to 8 s', () => {
		expect([0, 1, 2, 4, 5, 20].map(backoffMs)).toEqual([150, 300, 600, 2400, 4000, 4000]);
		random.mockReturnValue(0.5);
		expect([0, 1, 5].map(backoffMs)).toEqual([225, 450, 6000]);
	});

	it('waits exactly what the API asked, plus up to 100 ms', () => {
		const at = (ms: number) => ({ nextValidRequestDate: new Date(NOW + ms).toISOString() });
		expect(rateLimitWaitMs(at(1500), {}, 0, NOW)).toBe(1500);
		expect(rateLimitWaitMs({ nextValidRequestDate: NOW + 1200 }, {}, 0, NOW)).toBe(1200);
		expect(rateLimitWaitMs({}, { 'Retry-After': '2' }, 0, NOW)).toBe(2000);
		expect(rateLimitWaitMs({}, { 'retry-after': 3 }, 0, NOW)).toBe(3000);
		expect(rateLimitWaitMs({}, { 'retry-after': '0.0015' }, 0, NOW)).toBe(50);
		random.mockReturnValue(0.5);
		expect(rateLimitWaitMs(at(1500), {}, 0, NOW)).toBe(1550);
		expect(rateLimitWaitMs({}, { 'retry-after': '1.0004' }, 0, NOW)).toBe(1051);
	});

	it('never waits less than 50 ms nor more than the cap', () => {
		const past = { nextValidRequestDate: new Date(NOW - 10_000).toISOString() };
		expect(rateLimitWaitMs(past, {}, 0, NOW)).toBe(50);
		expect(rateLimitWaitMs({}, { 'retry-after': '0' }, 0, NOW)).toBe(50);
		expect(rateLimitWaitMs({}, { 'retry-after': '65' }, 0, NOW)).toBe(MAX_SINGLE_WAIT_MS);
		expect(rateLimitWaitMs({}, { 'retry-after': '64.5' }, 0, NOW)).toBe(64_500);
	});

	it('backs off when neither the body nor the headers say when', () => {
		for (const [body, headers] of [
			[{}, undefined],
			[undefined, {}],
			['a text body', {}],
			[null, { 'retry-after': null }],
			[{ nextValidRequestDate: 'soon' }, { 'retry-after': 'later' }],
			[{ nextValidRequestDate: { at: NOW + 5000 } }, { 'x-retry-after': '9' }],
		] as Array<[unknown, Record<string, unknown> | undefined]>) {
			expect(rateLimitWaitMs(body, headers, 2, NOW)).toBe(600);
		}
	});
});
