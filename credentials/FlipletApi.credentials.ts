import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * Expression form of `resolveBaseUrl` in nodes/Fliplet/transport/baseUrl.ts (a test keeps the two in
 * step). An unsafe custom URL (plain http to a remote host) resolves to a reserved `.invalid` host
 * whose name explains the problem, so the credential test fails before the token is sent anywhere.
 */
const BASE_URL_EXPRESSION =
	"={{ (() => { const region = $credentials.region || 'auto'; const token = String($credentials.accessToken || '').trim(); const hosts = { eu: 'https://api.fliplet.com', us: 'https://us.api.fliplet.com', ca: 'https://ca.api.fliplet.com' }; if (region === 'custom') { const url = String($credentials.baseUrl || '').trim().replace(/\\/+$/, ''); const isLoopback = /^http:\\/\\/(127\\.0\\.0\\.1|localhost|\\[::1\\])(:\\d+)?(\\/|$)/i.test(url + '/'); return /^https:\\/\\//i.test(url) || isLoopback ? url : 'https://custom-base-url-must-use-https.invalid'; } if (region !== 'auto') { return hosts[region]; } const prefix = token.slice(0, 4).toLowerCase(); return prefix === 'us--' ? hosts.us : prefix === 'ca--' ? hosts.ca : hosts.eu; })() }}";

export class FlipletApi implements ICredentialType {
	name = 'flipletApi';

	displayName = 'Fliplet API';

	icon: Icon = { light: 'file:../icons/fliplet.svg', dark: 'file:../icons/fliplet.dark.svg' };

	documentationUrl = 'https://developers.fliplet.com/REST-API/authenticate.html';

	properties: INodeProperties[] = [
		{
			displayName: 'API Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'An app API token (App settings → API tokens in Fliplet Studio), an organization token, or a Studio user token. Tokens start with their region, e.g. "eu--".',
		},
		{
			displayName: 'Region',
			name: 'region',
			type: 'options',
			default: 'auto',
			options: [
				{
					name: 'Auto (From the Token Prefix)',
					value: 'auto',
					description:
						'Tokens starting with "us--" use the US host, "ca--" the Canadian host, anything else the EU host',
				},
				{ name: 'Europe', value: 'eu', description: 'https://api.fliplet.com' },
				{ name: 'United States', value: 'us', description: 'https://us.api.fliplet.com' },
				{ name: 'Canada', value: 'ca', description: 'https://ca.api.fliplet.com' },
				{ name: 'Custom Base URL', value: 'custom' },
			],
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://api.example.com',
			description:
				'Must start with https:// (plain http:// is accepted only for 127.0.0.1 or localhost, such as the local sandbox), so the token never travels unencrypted',
			displayOptions: { show: { region: ['custom'] } },
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description:
				'How long to wait for an answer before giving up on a request. Reads are retried after a timeout; publishing, sending and AI requests are never re-sent automatically.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				// Trimmed: a token pasted with a trailing newline would otherwise be refused.
				'Auth-token': "={{ String($credentials.accessToken || '').trim() }}",
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: '/v1/apps',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: { value: 401, message: 'The token is not valid or was revoked' },
			},
		],
	};
}
