import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

const ADVANCED = 'advancedSettings';

/** A field the credential form shows only with Advanced Settings (or when it holds a change). */
type AdvancedField = INodeProperties & { default: number | string };

/**
 * The settings that have a safe default: the plan (Free paces AI requests slowest, never
 * refused; a run that waits on it says so in its hints), and what only queue mode and slow
 * connections need.
 */
const ADVANCED_FIELDS: AdvancedField[] = [
	{
		displayName: 'Plan (Sets the AI Rate Limit)',
		name: 'aiPlan',
		type: 'options',
		default: 'free',
		options: [
			{
				name: 'Free Plan',
				value: 'free',
				description: '10 AI requests a minute for the organization',
			},
			{
				name: 'Paid Plan (Public, Private, Private+, Enterprise)',
				value: 'paid',
				description: '100 AI requests a minute for the organization',
			},
		],
		description:
			"Your organization's Fliplet plan. AI requests (text, images, transcription, embeddings) are paced to its limit, for all the organization's apps together: 10 a minute on the Free plan, 100 on every other plan. If unsure, keep Free: a paid plan's requests then go out more slowly, never refused.",
	},
	{
		displayName: 'n8n Processes Using This Token',
		name: 'processes',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description:
			"How many n8n processes send requests with this token at the same time: in queue mode count the workers (and main, if it runs workflows or webhooks), plus any other n8n instance using the token. Each process starts at that share of Fliplet's rate limits, so together they stay within them, and takes more only while Fliplet refuses nothing. With 1 (one n8n), a process starts at the whole limit and gives way only after its first refusals; see the queue-mode docs.",
	},
	{
		displayName: 'Data Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 60,
		description:
			'How long a data source, app, notification, audit log or analytics request may take in all (connecting, sending, and receiving the whole answer). Reads are retried after a timeout; writes that are not safe to repeat are not.',
	},
	{
		displayName: 'Email and SMS Timeout (Seconds)',
		name: 'communicateTimeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 30,
		description:
			'How long sending an email or SMS may take in all (connecting, sending, and receiving the whole answer). A message is never re-sent automatically.',
	},
	{
		displayName: 'AI Timeout (Seconds)',
		name: 'aiTimeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description:
			'How long an AI request (text, image, transcription, embeddings) may take in all, the whole answer included. AI requests are never re-sent automatically.',
	},
];

/**
 * A field shown while Advanced Settings is on, and also while it holds another value than its
 * default: n8n drops the value of a hidden credential field, so a credential saved before the
 * switch existed (or imported without it), whose process count or timeout was changed, keeps it.
 */
function behindAdvancedSettings(field: AdvancedField): INodeProperties[] {
	return [
		{ ...field, displayOptions: { show: { [ADVANCED]: [true] } } },
		{
			...field,
			displayOptions: {
				show: { [ADVANCED]: [false], [field.name]: [{ _cnd: { not: field.default } }] },
			},
		},
	];
}

export class FlipletApi implements ICredentialType {
	name = 'flipletApi';

	displayName = 'Fliplet API';

	icon: Icon = { light: 'file:../icons/fliplet.svg', dark: 'file:../icons/fliplet.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-fliplet/n8n-nodes-fliplet#credentials';

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
					name: 'Automatic (From the Token Prefix)',
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
			displayName: 'File Hosts',
			name: 'fileHosts',
			type: 'string',
			default: '',
			placeholder: 'https://files.example.com',
			description:
				"Hosts, besides the base URL's, that Download Files may fetch files from, without the token (comma-separated origins, https:// or http:// on 127.0.0.1 and localhost), such as a proxy's file host or the sandbox's. With a region, Fliplet's own file hosts (cdn.fliplet.com and the region's) are used.",
			displayOptions: { show: { region: ['custom'] } },
		},
		{
			displayName: 'Advanced Settings',
			name: ADVANCED,
			type: 'boolean',
			default: false,
			description:
				"Whether to show the settings with a safe default: your organization's plan (it paces AI requests; Free if not set), queue mode (n8n processes using this token) and slow connections (timeouts). Hidden, they keep their defaults.",
		},
		...ADVANCED_FIELDS.flatMap(behindAdvancedSettings),
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

	// The credential test is the nodes' `flipletApiTest` (testedBy), so its messages reach n8n 1.x too.
}
