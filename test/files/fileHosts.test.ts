import {
	fileHostsOf,
	locateFile,
	REGION_API_CDN,
	REGION_FILE_HOSTS,
	type FileHosts,
} from '../../nodes/Fliplet/transport/fileHosts';

// Which hosts Download Files may fetch from, and which of them gets the token: a pure rule, read
// from the credential (the region's hosts as the platform's "URLs and IP addresses" page lists
// them, or the custom base URL's origin and its File Hosts field).
describe('file hosts of a credential', () => {
	it("are the region's API host and Fliplet's file hosts, by region or by the token's prefix", () => {
		expect(fileHostsOf({ accessToken: 'eu--x' }, 'https://api.fliplet.com')).toEqual({
			api: 'https://api.fliplet.com',
			apiPath: '',
			apiCdn: ['https://cdn.api.fliplet.com'],
			cdn: ['https://cdn.fliplet.com', 'https://cdn.api.fliplet.com'],
		});
		expect(
			fileHostsOf({ accessToken: 'us--x', region: 'auto' }, 'https://us.api.fliplet.com'),
		).toEqual({
			api: 'https://us.api.fliplet.com',
			apiPath: '',
			apiCdn: ['https://us.cdn.api.fliplet.com'],
			cdn: REGION_FILE_HOSTS.us,
		});
		expect(REGION_FILE_HOSTS.us).toEqual([
			'https://cdn.fliplet.com',
			'https://cdn.api.fliplet.com',
			'https://us.cdn.fliplet.com',
			'https://us.cdn.api.fliplet.com',
		]);
		expect(
			(
				fileHostsOf(
					{ accessToken: 'eu--x', region: 'ca' },
					'https://ca.api.fliplet.com',
				) as FileHosts
			).cdn,
		).toEqual(REGION_FILE_HOSTS.ca);
		// A File Hosts value left from a custom base URL does not widen a region's hosts.
		expect(
			fileHostsOf({ region: 'eu', fileHosts: 'https://evil.example' }, 'https://api.fliplet.com'),
		).toEqual({
			api: 'https://api.fliplet.com',
			apiPath: '',
			apiCdn: [REGION_API_CDN.eu],
			cdn: REGION_FILE_HOSTS.eu,
		});
	});

	it('with a custom base URL: its origin is the API host, and File Hosts lists the others (https, or http on this machine)', () => {
		expect(
			fileHostsOf(
				{
					region: 'custom',
					fileHosts: ' https://files.example.com/any/path, http://127.0.0.1:9000 ',
				},
				'https://proxy.example.com/fliplet',
			),
		).toEqual({
			api: 'https://proxy.example.com',
			apiPath: '/fliplet',
			apiCdn: ['https://files.example.com', 'http://127.0.0.1:9000'],
			cdn: ['https://files.example.com', 'http://127.0.0.1:9000'],
		});
		expect(fileHostsOf({ region: 'custom' }, 'http://127.0.0.1:5680/')).toEqual({
			api: 'http://127.0.0.1:5680',
			apiPath: '',
			apiCdn: [],
			cdn: [],
		});
		for (const unsafe of [
			'http://files.example.com',
			'ftp://files.example.com',
			'files.example.com',
		]) {
			expect(fileHostsOf({ region: 'custom', fileHosts: unsafe }, 'https://a.example')).toEqual({
				error: expect.stringContaining(`"${unsafe}" is not an https:// address`),
			});
		}
	});
});

describe('where a file URL points', () => {
	const hosts: FileHosts = {
		api: 'https://api.fliplet.com',
		apiPath: '',
		apiCdn: [REGION_API_CDN.eu],
		cdn: REGION_FILE_HOSTS.eu,
	};

	it.each([
		['https://api.fliplet.com/v1/media/files/1/contents/a.png', 'api'],
		['https://API.Fliplet.com:443/v1/media/files/1/contents/a.png', 'api'],
		['https://cdn.fliplet.com/apps/2/foo.jpg', 'cdn'],
		['  https://cdn.api.fliplet.com/apps/2/foo.jpg  ', 'cdn'],
	])('%s is on the %s host', (url, host) => {
		expect(locateFile(url, hosts)).toEqual({ host, url: expect.any(URL) });
	});

	it.each([
		['https://api.fliplet.com/v1/media/files/12/contents', '/v1/media/files/12/contents'],
		['https://api.fliplet.com/v1/media/files/12/contents/', '/v1/media/files/12/contents'],
		[
			'https://api.fliplet.com/v1/media/files/12/contents/Caf%C3%A9%20%C3%BC.pdf?size=large',
			'/v1/media/files/12/contents/Caf%C3%A9%20%C3%BC.pdf?size=large',
		],
		// A token in the URL is never sent with the credential's: the header carries that one.
		[
			'https://api.fliplet.com/v1/media/files/12/contents/a.png?auth_token=eu--someone&size=small',
			'/v1/media/files/12/contents/a.png?size=small',
		],
		// In any case, and in the bracket forms a query parser reads as the same parameter.
		[
			'https://api.fliplet.com/v1/media/files/12/contents/a.png?AUTH_TOKEN=a&auth_token[]=b&auth_token%5B0%5D=c&size=small',
			'/v1/media/files/12/contents/a.png?size=small',
		],
		// The name is a label (the route serves the file by its id): it is cleaned, so no server
		// that decodes it can find a folder step or a control character in it.
		[
			'https://api.fliplet.com/v1/media/files/12/contents/..%2F..%2F..%2Fuser',
			'/v1/media/files/12/contents/user',
		],
		[
			'https://api.fliplet.com/v1/media/files/12/contents/..%5C..%5Cuser',
			'/v1/media/files/12/contents/user',
		],
		['https://api.fliplet.com/v1/media/files/12/contents/..%2F', '/v1/media/files/12/contents'],
		[
			'https://api.fliplet.com/v1/media/files/12/contents/evil%00%0D%0A.png',
			'/v1/media/files/12/contents/evil.png',
		],
		[
			'https://api.fliplet.com/v1/media/files/12/contents/a%E2%80%AEgnp.exe',
			'/v1/media/files/12/contents/agnp.exe',
		],
		// Folder steps are resolved before the route is read.
		[
			'https://api.fliplet.com/v1/user/../media/files/3/contents/a.png',
			'/v1/media/files/3/contents/a.png',
		],
	])('the contents route %s is read with the token', (url, read) => {
		const located = locateFile(url, hosts) as { host: string; url: URL };
		expect([located.host, located.url.href]).toEqual(['api', `https://api.fliplet.com${read}`]);
	});

	it.each([
		'https://api.fliplet.com/v1/user',
		'https://api.fliplet.com/v1/data-sources?appId=11',
		'https://api.fliplet.com/v1/organizations/1/tokens',
		'https://api.fliplet.com/v1/media/files/12',
		'https://api.fliplet.com/v1/media/files/12/contents/a/b.png',
		'https://api.fliplet.com/v1/media/files/12/contents/%2e%2e/%2e%2e/%2e%2e/%2e%2e/user',
		'https://api.fliplet.com/v1/media/files/abc/contents/a.png',
		'https://api.fliplet.com/v1/media/files/1/pdf',
		'https://api.fliplet.com/v1/media/zip?files=1,2',
		'https://api.fliplet.com/',
	])('%s (an API address other than the contents route) is not fetched', (url) => {
		expect(locateFile(url, hosts)).toEqual({
			refused: expect.stringContaining(
				"it is an address of the Fliplet API other than a file's contents (https://api.fliplet.com/v1/media/files/<id>/contents)",
			),
		});
	});

	it('with a base URL that has a path, only the contents route below that path is read with the token', () => {
		const proxy: FileHosts = {
			api: 'https://proxy.example.com',
			apiPath: '/fliplet',
			apiCdn: ['https://files.example.com'],
			cdn: ['https://files.example.com'],
		};
		const at = (url: string) => locateFile(url, proxy);
		expect(at('https://proxy.example.com/fliplet/v1/media/files/5/contents/a.png')).toEqual({
			host: 'api',
			url: new URL('https://proxy.example.com/fliplet/v1/media/files/5/contents/a.png'),
		});
		// A contents URL on its file host is read from the API host, below the base URL's path.
		expect(at('https://files.example.com/v1/media/files/5/contents/a.png?auth_token=x')).toEqual({
			host: 'api',
			url: new URL('https://proxy.example.com/fliplet/v1/media/files/5/contents/a.png'),
		});
		for (const other of [
			'https://proxy.example.com/v1/media/files/5/contents/a.png',
			'https://proxy.example.com/other/v1/media/files/5/contents/a.png',
			'https://proxy.example.com/fliplet/v1/user',
			'https://proxy.example.com/flipletx/v1/media/files/5/contents/a.png',
			'https://proxy.example.com/fliplet/../v1/media/files/5/contents/a.png',
		]) {
			expect(at(other)).toEqual({
				refused: expect.stringContaining(
					'(https://proxy.example.com/fliplet/v1/media/files/<id>/contents)',
				),
			});
		}
	});

	it.each([
		['eu', 'https://api.fliplet.com', 'https://cdn.api.fliplet.com'],
		['us', 'https://us.api.fliplet.com', 'https://us.cdn.api.fliplet.com'],
		['ca', 'https://ca.api.fliplet.com', 'https://ca.cdn.api.fliplet.com'],
	] as const)(
		"%s: a contents URL on the region's API file host is read from the API host, its token out of the URL",
		(region, api, apiCdn) => {
			const regional = fileHostsOf({ region }, api) as FileHosts;
			const located = locateFile(
				`${apiCdn}/v1/media/files/7/contents/scan.jpg?auth_token=eu--theirs&size=large`,
				regional,
			);
			expect(located).toEqual({
				host: 'api',
				url: new URL(`${api}/v1/media/files/7/contents/scan.jpg?size=large`),
			});
			// Any other path on it is a public file, fetched without the token.
			expect(locateFile(`${apiCdn}/apps/2/foo.jpg`, regional)).toMatchObject({ host: 'cdn' });
		},
	);

	it("another region's API file host keeps serving public files only, without the token", () => {
		const us = fileHostsOf({ region: 'us' }, 'https://us.api.fliplet.com') as FileHosts;
		expect(
			locateFile('https://cdn.api.fliplet.com/v1/media/files/7/contents/scan.jpg', us),
		).toMatchObject({ host: 'cdn' });
	});

	it.each([
		[
			'https://cdn.fliplet.com.evil.example/a.png',
			'https://cdn.fliplet.com.evil.example is neither',
		],
		['https://api.fliplet.com@evil.example/a.png', 'it carries a user name or password'],
		['https://evil.example/?https://cdn.fliplet.com/a.png', 'https://evil.example is neither'],
		['http://cdn.fliplet.com/a.png', 'http://cdn.fliplet.com is neither'],
		['https://cdn.fliplet.com:8443/a.png', 'https://cdn.fliplet.com:8443 is neither'],
		[
			'https://us.api.fliplet.com/v1/media/files/1/contents/a.png',
			'https://us.api.fliplet.com is neither',
		],
		['https://user:pass@cdn.fliplet.com/a.png', 'it carries a user name or password'],
		['javascript:alert(1)', 'it is a javascript: address, not http(s)'],
		['file:///etc/passwd', 'it is a file: address, not http(s)'],
		['/v1/media/files/1/contents/a.png', 'it is not an absolute URL'],
		['apps/2/foo.jpg', 'it is not an absolute URL'],
	])('%s is not fetched', (url, reason) => {
		const located = locateFile(url, hosts);
		expect(located).toEqual({ refused: expect.stringContaining(reason) });
	});
});
