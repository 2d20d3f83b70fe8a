import type { INodeProperties } from 'n8n-workflow';

export const notificationIdField: INodeProperties = {
	displayName: 'Notification ID',
	name: 'notificationId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 501',
	description: 'The ID of the notification (Get Many shows it)',
};

/** Title, message and free data: the notification's `data` object. */
export const contentFields: INodeProperties[] = [
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		placeholder: 'e.g. Office closed on Friday',
		description: 'Stored as data.title',
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. The office is closed for maintenance.',
		description: 'Stored as data.message',
	},
	{
		displayName: 'Additional Data (JSON)',
		name: 'additionalData',
		type: 'json',
		default: '{}',
		description:
			'More free-form fields of the notification\'s data object, e.g. {"link": "https://…"}. Title and Message override keys of the same name.',
	},
];

const audienceField: INodeProperties = {
	displayName: 'Audience',
	name: 'scopeMode',
	type: 'options',
	default: 'everyone',
	options: [
		{ name: 'Everyone', value: 'everyone', description: 'All users of the app' },
		{
			name: 'Matching Users',
			value: 'match',
			description: 'Users whose column equals the value, or one of several values',
		},
		{ name: 'Scope (JSON)', value: 'json', description: 'A scope object or array written in JSON' },
	],
	description: 'Who sees the notification (its scope)',
};

const keepAudience = {
	name: 'Keep Current',
	value: 'keep',
	description: 'Do not change who sees it',
};

/** Who sees a notification: everyone, users whose column matches values, or a raw scope. */
export function scopeFields(withKeep: boolean): INodeProperties[] {
	return [
		withKeep
			? {
					...audienceField,
					default: 'keep',
					options: [keepAudience, ...(audienceField.options ?? [])],
				}
			: audienceField,
		{
			displayName: 'Conditions',
			name: 'scopeConditions',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: {},
			placeholder: 'Add Condition',
			description: 'All conditions must match (e.g. Department is Sales or Support)',
			displayOptions: { show: { scopeMode: ['match'] } },
			options: [
				{
					displayName: 'Condition',
					name: 'condition',
					values: [
						{
							displayName: 'Column',
							name: 'column',
							type: 'string',
							default: '',
							placeholder: 'e.g. Department',
							description: "A column of the app's user data source",
						},
						{
							displayName: 'Values',
							name: 'values',
							type: 'string',
							default: '',
							placeholder: 'e.g. Sales, Support',
							description: 'One value, or several separated by commas (any of them matches)',
						},
					],
				},
			],
		},
		{
			displayName: 'Scope (JSON)',
			name: 'scopeJson',
			type: 'json',
			default: '[]',
			placeholder: '[{"Email": {"$in": ["ann@example.com"]}}]',
			description: 'A scope object or an array of them, with database-style operators such as $in',
			displayOptions: { show: { scopeMode: ['json'] } },
		},
	];
}

const keepStatus = {
	name: 'Keep Current',
	value: 'keep',
	description: 'Leave the status and send date as they are (read from the notification first)',
};

/** Status and Scheduled For. The default "keep" (updates) adds the "Keep Current" option. */
export function statusFields(defaultStatus: 'draft' | 'keep'): INodeProperties[] {
	return [
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: defaultStatus,
			options: [
				{ name: 'Draft', value: 'draft', description: 'Visible only in Studio and preview apps' },
				...(defaultStatus === 'keep' ? [keepStatus] : []),
				{
					name: 'Published',
					value: 'published',
					description: 'Visible to all matching users of the live app',
				},
				{ name: 'Scheduled', value: 'scheduled', description: 'Sent at the Scheduled For date' },
			],
		},
		{
			displayName: 'Scheduled For',
			name: 'orderAt',
			type: 'dateTime',
			required: true,
			default: '',
			description:
				"When the notification is sent; must be in the future. A time without an offset is in the workflow's time zone.",
			displayOptions: { show: { status: ['scheduled'] } },
		},
	];
}

export const pushFields: INodeProperties[] = [
	{
		displayName: 'Send Push Notification',
		name: 'sendPush',
		type: 'boolean',
		default: false,
		description:
			'Whether to also send it as a push notification to devices. Fliplet sends the push of any notification that carries one, whatever its status, so a draft cannot carry one: turn it on when you publish or schedule.',
	},
	{
		displayName: 'Push Notification',
		name: 'push',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { sendPush: [true] } },
		options: [
			{
				displayName: 'Badge',
				name: 'badge',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 1,
				description: 'A fixed app icon badge count (left out, Fliplet counts the badge itself)',
			},
			{
				displayName: 'Body',
				name: 'body',
				type: 'string',
				default: '',
				description: 'Push text (defaults to the Message)',
			},
			{
				displayName: 'Delay Until',
				name: 'delayUntil',
				type: 'dateTime',
				default: '',
				description:
					"Hold the push until this date (a time without an offset is in the workflow's time zone)",
			},
			{
				displayName: 'Icon',
				name: 'icon',
				type: 'string',
				default: 'icon_notification',
				description:
					"The Android notification icon the app ships (Fliplet's editor sends icon_notification); empty leaves it out",
			},
			{
				displayName: 'Link Query',
				name: 'linkQuery',
				type: 'string',
				default: '',
				placeholder: 'e.g. ?weather=sunny',
				description: 'Query string handed to the screen the push opens (with Link to Screen)',
			},
			{
				displayName: 'Link to Screen',
				name: 'linkScreen',
				type: 'string',
				default: '',
				placeholder: 'e.g. 123',
				description:
					'ID of the app screen a tap on the push opens (sent as the deep link {action: "screen", page, query}, and as the notification\'s data.navigate so its entry in the inbox opens it too)',
			},
			{
				displayName: 'Priority',
				name: 'priority',
				type: 'options',
				default: 'high',
				description: "Sent with every push (Fliplet's editor always sends High)",
				options: [
					{ name: 'High', value: 'high', description: 'Delivered at once, waking the device' },
					{ name: 'Normal', value: 'normal', description: 'May be delayed to save battery' },
				],
			},
			{
				displayName: 'Push Only',
				name: 'pushOnly',
				type: 'boolean',
				default: true,
				description:
					"Whether to send only the push notification, without an entry in the app's notifications inbox (type push); off keeps the in-app notification too",
			},
			{
				displayName: 'Sound',
				name: 'sound',
				type: 'string',
				default: 'default',
				description:
					"The sound the device plays: default (what Fliplet's editor sends) or a sound file the app ships; empty sends a silent push",
			},
			{
				displayName: 'Subscription IDs',
				name: 'subscriptions',
				type: 'string',
				default: '',
				placeholder: 'e.g. 71, 72',
				description:
					'Only these push subscriptions (Get Push Subscriptions shows them), separated by commas. Empty: every subscribed device that matches the audience.',
			},
			{
				displayName: 'Title',
				name: 'title',
				type: 'string',
				default: '',
				description: 'Push title (defaults to the Title)',
			},
		],
	},
];
