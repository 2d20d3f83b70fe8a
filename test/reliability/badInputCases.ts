import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { TestItem } from '../harness';

/**
 * A group of bad inputs for one field of one operation. Each value lands in the item as
 * `$json.v`, and the field reads it with an expression, as a workflow would; `undefined` leaves
 * `v` out, so the expression resolves to undefined.
 */
export interface BadInputGroup {
	operation: string;
	parameters: INodeParameters;
	/** What the error message must say, so the user knows which field to fix. */
	field: RegExp;
	/** What the description must also say, beyond telling the user what to do. */
	fix?: RegExp;
	values: unknown[];
	/** Reads are allowed (e.g. a name that must be looked up); writes never are. */
	readsAllowed?: boolean;
	/** Extra item content (binary files) for every value. */
	item?: (value: unknown) => TestItem;
	token?: 'app' | 'org';
}

const v = '={{ $json.v }}';
const APP = { __rl: true, mode: 'id', value: '11' };
const ORG = { __rl: true, mode: 'id', value: '1' };
const STAFF = { __rl: true, mode: 'id', value: '100' };
const HUGE = 'x'.repeat(2_000_000);
const NOT_IDS = ['', '   ', 'abc', '1.5', '-3', '12abc', '../201', '201?x=1', undefined, HUGE, 7.5];
const BAD_JSON = ['{', '{"a": 1', "{'a': 1}", 'undefined', '[1, 2', 'NaN'];
const BAD_EMAILS = [
	'',
	'not-an-email',
	'ann@',
	'@example.com',
	'ann@@example.com',
	'ann example@x.com',
	'ann@example.com, bob',
	'<script>@x.com',
	undefined,
	42,
	`${HUGE}@example.com`,
];
const BAD_PHONES = [
	'',
	'123',
	'+1',
	'abc',
	'++447700900123',
	'+44 7700 900123 ext 5',
	'0',
	undefined,
	`+44${'7'.repeat(100_000)}`,
];
/** Row data as JSON.parse leaves it: `__proto__` becomes an own key, not the prototype. */
const proto = (key: string) =>
	JSON.parse(
		key === 'constructor'
			? '{"constructor": {"prototype": {"polluted": true}}, "Name": "P"}'
			: `{"${key}": {"polluted": true}, "Name": "P"}`,
	) as IDataObject;
const WAV = Buffer.concat([Buffer.from('RIFF0000WAVEfmt '), Buffer.alloc(64)]).toString('base64');
/** One byte over the 25 MiB the transcription endpoint takes. */
const OVERSIZED_WAV = Buffer.concat([
	Buffer.from('RIFF0000WAVEfmt '),
	Buffer.alloc(25 * 1024 * 1024 + 1 - 16),
]).toString('base64');

export const BAD_INPUT_GROUPS: BadInputGroup[] = [
	{
		operation: 'Entry → Get: Entry ID',
		parameters: { resource: 'entry', operation: 'get', dataSource: STAFF, entryId: v },
		field: /Entry ID/,
		values: NOT_IDS,
	},
	{
		operation: 'Entry → Update: Entry ID',
		parameters: {
			resource: 'entry',
			operation: 'update',
			dataSource: STAFF,
			entryId: v,
			columns: { mappingMode: 'defineBelow', value: { Age: 1 } },
		},
		field: /Entry ID/,
		values: ['', 'abc', '-1', undefined],
	},
	{
		operation: 'Entry → Delete: Entry ID',
		parameters: { resource: 'entry', operation: 'delete', dataSource: STAFF, entryId: v },
		field: /Entry ID/,
		values: ['', 'abc', '2.5', undefined],
	},
	{
		operation: 'Entry → Get: data source ID',
		parameters: {
			resource: 'entry',
			operation: 'get',
			dataSource: { __rl: true, mode: 'id', value: v },
			entryId: '201',
		},
		field: /Data Source/i,
		values: ['', 'abc', '1e3', '100/data', undefined],
	},
	{
		operation: 'Entry → Commit: Entries (JSON)',
		parameters: { resource: 'entry', operation: 'commit', dataSource: STAFF, entries: v },
		field: /Entries/,
		// The fix shows entries, not an aggregation pipeline.
		fix: /"data"|whole number/,
		values: [
			...BAD_JSON,
			'{"data": {}}',
			'"text"',
			'[1, 2]',
			'[{"id": "abc", "data": {}}]',
			'[{"data": 5}]',
		],
	},
	{
		operation: 'Entry → Commit: prototype keys in row data',
		parameters: { resource: 'entry', operation: 'commit', dataSource: STAFF, entries: v },
		field: /__proto__|constructor/,
		values: [
			'[{"data": {"__proto__": {"polluted": true}}}]',
			'[{"data": {"constructor": {"prototype": {"polluted": true}}}}]',
			'[{"data": {"Name": "A"}}, {"data": {"Nested": {"__proto__": {"x": 1}}}}]',
		],
	},
	{
		operation: 'Entry → Insert: prototype keys in row data',
		parameters: {
			resource: 'entry',
			operation: 'insert',
			dataSource: STAFF,
			columns: { mappingMode: 'autoMapInputData', value: null },
		},
		field: /__proto__|constructor/,
		values: ['__proto__', 'constructor'],
		item: (key) => ({ json: proto(String(key)) }),
	},
	{
		operation: 'Entry → Import: prototype keys in row data',
		parameters: { resource: 'entry', operation: 'import', dataSource: STAFF },
		field: /__proto__/,
		// Import sends all items in one request, so one bad item fails the whole batch.
		values: ['__proto__'],
		item: (key) => ({ json: proto(String(key)) }),
	},
	{
		operation: 'Entry → Get Many: Where (JSON)',
		parameters: {
			resource: 'entry',
			operation: 'getMany',
			dataSource: STAFF,
			queryMode: 'json',
			where: v,
		},
		field: /Where/,
		values: [...BAD_JSON, '[1]', '"x"', '5'],
	},
	{
		operation: 'Entry → Get Many: Aggregate (JSON)',
		parameters: {
			resource: 'entry',
			operation: 'getMany',
			dataSource: STAFF,
			queryMode: 'json',
			where: '{}',
			aggregate: v,
		},
		field: /Aggregate/,
		values: ['{', '{"$group": 1}', '"x"'],
	},
	{
		operation: 'Entry → Delete Many: Where (JSON)',
		parameters: {
			resource: 'entry',
			operation: 'deleteMany',
			dataSource: STAFF,
			queryMode: 'json',
			where: v,
		},
		field: /Where|filter/,
		values: ['{}', '{', '[]', 'null', undefined],
	},
	{
		operation: 'Entry → Get Unique Values: Columns',
		parameters: {
			resource: 'entry',
			operation: 'getUniqueValues',
			dataSource: STAFF,
			uniqueColumns: v,
		},
		field: /column/i,
		values: ['', ' , ', undefined],
	},
	{
		operation: 'Data Source Version → Restore: Version ID',
		parameters: {
			resource: 'dataSourceVersion',
			operation: 'restore',
			dataSource: STAFF,
			versionId: v,
		},
		field: /Version ID/,
		values: ['', 'abc', '-1', undefined],
	},
	{
		operation: 'Data Source Version → Get Entries: Version ID',
		parameters: {
			resource: 'dataSourceVersion',
			operation: 'getEntries',
			dataSource: STAFF,
			versionId: v,
		},
		field: /Version ID/,
		values: ['', 'x1', undefined],
	},
	{
		operation: 'Data Source → Create: Name',
		parameters: { resource: 'dataSource', operation: 'create', scope: 'app', app: APP, name: v },
		field: /name/i,
		values: ['', '   ', undefined],
	},
	{
		operation: 'Data Source → Create: Organization ID',
		parameters: {
			resource: 'dataSource',
			operation: 'create',
			scope: 'organization',
			organizationId: v,
			name: 'X',
		},
		field: /organization/i,
		values: ['', 'acme', '1/2', undefined],
		token: 'org',
	},
	{
		operation: 'Email → Send: To',
		parameters: { resource: 'email', operation: 'send', to: v, subject: 'Hi', html: '<p>Hi</p>' },
		field: /To|recipient|address/i,
		values: BAD_EMAILS,
	},
	{
		operation: 'Email → Send: CC',
		parameters: {
			resource: 'email',
			operation: 'send',
			to: 'ann@example.com',
			subject: 'Hi',
			options: { cc: v },
		},
		field: /CC/,
		values: ['bad', 'a@b@c', 'ann@example.com; nope'],
	},
	{
		operation: 'Email → Send: attachment from a binary property',
		parameters: {
			resource: 'email',
			operation: 'send',
			to: 'ann@example.com',
			subject: 'Hi',
			options: { binaryProperties: v },
		},
		field: /binary|attachment|property/i,
		values: ['missing', 'data, nothere'],
	},
	{
		operation: 'SMS → Send: To',
		parameters: { resource: 'sms', operation: 'send', to: v, message: 'Hi' },
		field: /To|phone|number/i,
		values: BAD_PHONES,
	},
	{
		operation: 'SMS → Send: Message',
		parameters: { resource: 'sms', operation: 'send', to: '+447700900123', message: v },
		field: /Message/,
		values: ['', '   ', undefined],
	},
	{
		operation: 'Notification → Create: Additional Data (JSON)',
		parameters: {
			resource: 'notification',
			operation: 'create',
			app: APP,
			message: 'Hi',
			additionalData: v,
		},
		field: /Additional Data/,
		values: ['{', '[1]', '"x"', '5'],
	},
	{
		operation: 'Notification → Create: Scope (JSON)',
		parameters: {
			resource: 'notification',
			operation: 'create',
			app: APP,
			message: 'Hi',
			scopeMode: 'json',
			scopeJson: v,
		},
		field: /Scope/,
		values: ['{', '5', '"all"'],
	},
	{
		operation: 'Notification → Create: Order At',
		parameters: {
			resource: 'notification',
			operation: 'create',
			app: APP,
			message: 'Hi',
			status: 'scheduled',
			orderAt: v,
		},
		field: /Scheduled For/,
		values: ['yesterday', '2026-13-45', 'not a date', '2020-01-01T00:00:00Z', undefined],
	},
	{
		operation: 'Notification → Update: Notification ID',
		parameters: {
			resource: 'notification',
			operation: 'update',
			app: APP,
			notificationId: v,
			status: 'published',
		},
		field: /Notification ID/,
		values: ['', 'abc', '5/6', undefined],
	},
	{
		operation: 'Notification → Delete: Notification ID',
		parameters: { resource: 'notification', operation: 'delete', app: APP, notificationId: v },
		field: /Notification ID/,
		values: ['', 'x', undefined],
	},
	{
		operation: 'Notification → Mark as Read: Notification IDs',
		parameters: {
			resource: 'notification',
			operation: 'markAsRead',
			app: APP,
			recipientId: '3f2b8a9e-1c4d-4e5f-8a6b-7c8d9e0f1a2b',
			notificationIds: v,
		},
		field: /Notification IDs/,
		values: ['', 'a, b', '1, x', undefined],
	},
	{
		operation: 'Notification → Mark as Read: Recipient ID',
		parameters: {
			resource: 'notification',
			operation: 'markAsRead',
			app: APP,
			recipientId: v,
			notificationIds: '501',
		},
		field: /Recipient ID/,
		values: ['', '   ', undefined, 'r-1', '42', 'ann@example.com', '3f2b8a9e-1c4d-4e5f-8a6b'],
	},
	{
		operation: 'Organization Token → Create: Name',
		parameters: { resource: 'organizationToken', operation: 'create', organization: ORG, name: v },
		field: /name/i,
		values: ['', '  ', undefined],
		token: 'org',
	},
	{
		operation: 'Organization Token → Delete: Token ID',
		parameters: {
			resource: 'organizationToken',
			operation: 'delete',
			organization: ORG,
			token: { __rl: true, mode: 'id', value: v },
		},
		field: /token/i,
		values: ['', 'abc', undefined],
		token: 'org',
	},
	{
		operation: 'App → Publish: App ID',
		parameters: {
			resource: 'app',
			operation: 'publish',
			app: { __rl: true, mode: 'id', value: v },
			releaseType: 'silent',
		},
		field: /app/i,
		values: ['', 'abc', '11/publish', undefined],
	},
	{
		operation: 'AI → Generate Text: Prompt',
		parameters: { resource: 'ai', operation: 'generateText', app: APP, prompt: v },
		field: /prompt/i,
		values: ['', '   ', undefined],
	},
	{
		operation: 'AI → Generate Text: JSON body',
		parameters: {
			resource: 'ai',
			operation: 'generateText',
			app: APP,
			inputMode: 'json',
			jsonBody: v,
		},
		field: /JSON|Body/i,
		values: ['{', '[]', '"x"', '{"model": "gpt-4o-mini"}'],
	},
	{
		operation: 'AI → Create Embeddings: Text',
		parameters: { resource: 'ai', operation: 'createEmbeddings', app: APP, text: v },
		field: /text/i,
		values: ['', undefined],
	},
	{
		operation: 'AI → Transcribe Audio: the file',
		parameters: {
			resource: 'ai',
			operation: 'transcribeAudio',
			app: APP,
			binaryPropertyName: 'data',
		},
		field: /audio|file|binary|type|MIME/i,
		values: ['text/plain', 'image/png', 'missing', 'oversized'],
		item: (mimeType) =>
			mimeType === 'missing'
				? { json: {} }
				: mimeType === 'oversized'
					? {
							json: {},
							binary: { data: { data: OVERSIZED_WAV, fileName: 'a.wav', mimeType: 'audio/wav' } },
						}
					: {
							json: {},
							binary: { data: { data: WAV, fileName: 'a.txt', mimeType: String(mimeType) } },
						},
	},
	{
		operation: 'Organization → Get Analytics: Start Date',
		parameters: {
			resource: 'organization',
			operation: 'getAnalytics',
			organization: ORG,
			startDate: v,
			endDate: '2026-01-31',
		},
		field: /Start Date|date/i,
		values: ['soon', '2026-02-30x', '2027-01-01'],
		token: 'org',
	},
	{
		operation: 'Organization → Get Audit Logs: Organization ID',
		parameters: {
			resource: 'organization',
			operation: 'getAuditLogs',
			organization: { __rl: true, mode: 'id', value: v },
		},
		field: /organization/i,
		values: ['', 'acme', undefined],
		token: 'org',
	},
	{
		operation: 'Entry → Get: data source names with URL-special characters that do not exist',
		parameters: {
			resource: 'entry',
			operation: 'get',
			dataSource: { __rl: true, mode: 'name', value: v },
			entryId: '201',
		},
		field: /not found|Data source/i,
		values: ['a/b?c', 'x#y', '../../apps', '%2F%2E', 'Q&A = 100%', 'tab\tname'],
		readsAllowed: true,
	},
	{
		operation: 'AI → Generate Image: Prompt',
		parameters: { resource: 'ai', operation: 'generateImage', app: APP, prompt: v },
		field: /prompt/i,
		values: ['', '  ', undefined],
	},
	{
		operation: 'AI → Generate Text: Model',
		parameters: { resource: 'ai', operation: 'generateText', app: APP, prompt: 'Hi', model: v },
		field: /model/i,
		values: ['', undefined],
	},
	{
		operation: 'AI → Create Embeddings: Model',
		parameters: { resource: 'ai', operation: 'createEmbeddings', app: APP, text: 'Hi', model: v },
		field: /model/i,
		values: ['', undefined],
	},
	{
		operation: 'Entry → Get Many: Limit of the wrong type',
		parameters: {
			resource: 'entry',
			operation: 'getMany',
			dataSource: STAFF,
			returnAll: false,
			limit: v,
		},
		field: /limit/i,
		values: ['abc', -5, 0, 1.5, '{"n": 1}'],
	},
	{
		operation: 'Email → Send: To of the wrong type',
		parameters: { resource: 'email', operation: 'send', to: v, subject: 'Hi' },
		field: /To|recipient|address/i,
		values: [{ address: 'ann@example.com' }, [42], true],
	},
	{
		operation: 'Entry → Get Many: a filter on a column named __proto__',
		parameters: {
			resource: 'entry',
			operation: 'getMany',
			dataSource: STAFF,
			queryMode: 'simple',
			filters: { conditions: [{ column: v, condition: '$eq', value: 'x' }] },
			returnAll: true,
		},
		field: /__proto__/,
		values: ['__proto__'],
	},
	{
		operation: 'Entry → Delete Many: a filter on a column named __proto__',
		parameters: {
			resource: 'entry',
			operation: 'deleteMany',
			dataSource: STAFF,
			queryMode: 'simple',
			filters: { conditions: [{ column: v, condition: '$eq', value: 'x' }] },
		},
		field: /__proto__/,
		values: ['__proto__'],
	},
];
