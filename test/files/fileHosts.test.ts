import {
	fileHostsOf,
	locateFile,
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
			cdn: ['https://cdn.fliplet.com', 'https://cdn.api.fliplet.com'],
		});
		expect(
			fileHostsOf({ accessToken: 'us--x', region: 'auto' }, 'https://us.api.fliplet.com'),
		).toEqual({
			api: 'https://us.api.fliplet.com',
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
		).toEqual({ api: 'https://api.fliplet.com', cdn: REGION_FILE_HOSTS.eu });
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
			cdn: ['https://files.example.com', 'http://127.0.0.1:9000'],
		});
		expect(fileHostsOf({ region: 'custom' }, 'http://127.0.0.1:5680')).toEqual({
			api: 'http://127.0.0.1:5680',
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
	const hosts: FileHosts = { api: 'https://api.fliplet.com', cdn: REGION_FILE_HOSTS.eu };

	it.each([
		['https://api.fliplet.com/v1/media/files/1/contents/a.png', 'api'],
		['https://API.Fliplet.com:443/v1/media/files/1/contents/a.png', 'api'],
		['https://cdn.fliplet.com/apps/2/foo.jpg', 'cdn'],
		['  https://cdn.api.fliplet.com/apps/2/foo.jpg  ', 'cdn'],
	])('%s is on the %s host', (url, host) => {
		expect(locateFile(url, hosts)).toEqual({ host, url: expect.any(URL) });
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
