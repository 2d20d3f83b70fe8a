import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { callSandbox, TOKENS, type Sandbox, type TestItem } from '../harness';

/** One write operation under fault: how to run it, which request is the write, what it changes. */
export interface WriteCase {
	name: string;
	parameters: INodeParameters;
	input?: TestItem[];
	token?: string;
	/** The write request (method and path) the fault hits. */
	method: string;
	path: RegExp;
	/** Whether re-sending is harmless, so the node retries it. */
	idempotent: boolean;
	/** Prepares records the write needs and returns parameter overrides (e.g. a new id). */
	setup?: (sandbox: Sandbox) => Promise<INodeParameters> | INodeParameters;
	/** How many times the write's effect is visible in the sandbox afterwards (must be 1). */
	effects: (sandbox: Sandbox) => number;
}

const APP = { __rl: true, mode: 'id', value: '11' };
const ORG = { __rl: true, mode: 'id', value: '1' };
const staff = { __rl: true, mode: 'id', value: '100' };
const departments = { __rl: true, mode: 'id', value: '101' };
/** Entry → Update of one column of entry 201 (Merge, the default). */
const updateAge = {
	resource: 'entry',
	operation: 'update',
	dataSource: staff,
	entryId: '201',
	columns: { mappingMode: 'defineBelow', value: { Age: 29 } },
};

type Entry = { id: number; dataSourceId: number; data: IDataObject };
type Notification = { id: number; title?: string; data?: IDataObject; deletedAt?: string | null };

const entries = (sandbox: Sandbox, dataSourceId: number): Entry[] =>
	(sandbox.state.entries as Entry[]).filter((entry) => entry.dataSourceId === dataSourceId);
const entriesWhere = (
	sandbox: Sandbox,
	dataSourceId: number,
	test: (data: IDataObject) => boolean,
) => entries(sandbox, dataSourceId).filter((entry) => test(entry.data)).length;
const dataSources = (sandbox: Sandbox) => sandbox.state.dataSources as Array<IDataObject>;
const notifications = (sandbox: Sandbox) => sandbox.state.notifications as Notification[];
const aiCalls = (sandbox: Sandbox, kind: RegExp) =>
	(sandbox.state.ai.calls as IDataObject[]).filter((call) => kind.test(JSON.stringify(call)))
		.length;

/** Calls the sandbox as a client would to set a case up, then forgets that request. */
async function call(
	sandbox: Sandbox,
	method: string,
	path: string,
	body: unknown,
	token = TOKENS.app,
) {
	const response = await callSandbox(sandbox, method, path, body, token);
	if (response.status >= 400) throw new Error(`${method} ${path} answered ${response.status}`);
	sandbox.requests.length = 0;
	return response.body as IDataObject;
}

async function createOrgToken(sandbox: Sandbox, name: string): Promise<number> {
	const { id } = await call(sandbox, 'POST', '/v1/organizations/1/tokens', { name }, TOKENS.org);
	return Number(id);
}

const WAV = Buffer.concat([Buffer.from('RIFF0000WAVEfmt '), Buffer.alloc(64)]).toString('base64');

export const WRITE_CASES: WriteCase[] = [
	// Idempotent writes: retried after the fault, and they land once.
	{
		name: 'Data Source → Update',
		parameters: {
			resource: 'dataSource',
			operation: 'update',
			dataSource: departments,
			updateFields: { name: 'Teams' },
		},
		method: 'PUT',
		path: /^\/v1\/data-sources\/101$/,
		idempotent: true,
		effects: (sandbox) => dataSources(sandbox).filter((ds) => ds.name === 'Teams').length,
	},
	{
		name: 'Data Source → Delete',
		parameters: { resource: 'dataSource', operation: 'delete', dataSource: departments },
		method: 'DELETE',
		path: /^\/v1\/data-sources\/101$/,
		idempotent: true,
		effects: (sandbox) => (dataSources(sandbox).some((ds) => ds.id === 101) ? 0 : 1),
	},
	{
		name: 'Data Source Version → Restore',
		parameters: { resource: 'dataSourceVersion', operation: 'restore', dataSource: staff },
		setup: async (sandbox) => {
			const version = (sandbox.state.versions as IDataObject[]).find(
				(candidate) => candidate.dataSourceId === 100,
			);
			await call(sandbox, 'PUT', '/v1/data-sources/100/data/200', { Name: 'Changed since' });
			return { versionId: String(version?.id) };
		},
		method: 'POST',
		path: /^\/v1\/data-sources\/100\/versions\/\d+\/restore$/,
		idempotent: true,
		effects: (sandbox) =>
			entriesWhere(sandbox, 100, (data) => data.Name === 'Changed since')
				? 0
				: entriesWhere(sandbox, 100, (data) => data.Email === 'alice@example.com'),
	},
	{
		name: 'Entry → Update',
		parameters: updateAge,
		// Merge (the default) with hooks (the default) is the single-entry update, which runs the
		// data source's update hooks: a second one would run them again.
		method: 'PUT',
		path: /^\/v1\/data-sources\/100\/data\/201$/,
		idempotent: false,
		effects: (sandbox) => entriesWhere(sandbox, 100, (data) => data.Age === 29),
	},
	{
		name: 'Entry → Update (Run Update Hooks off)',
		parameters: { ...updateAge, runHooks: false },
		// One commit that merges on the server, without hooks: writing it twice changes nothing.
		method: 'POST',
		path: /^\/v1\/data-sources\/100\/commit$/,
		idempotent: true,
		effects: (sandbox) => entriesWhere(sandbox, 100, (data) => data.Age === 29),
	},
	{
		name: 'Entry → Delete',
		parameters: { resource: 'entry', operation: 'delete', dataSource: staff, entryId: '204' },
		method: 'DELETE',
		path: /^\/v1\/data-sources\/100\/data\/204$/,
		idempotent: true,
		effects: (sandbox) => (entries(sandbox, 100).some((entry) => entry.id === 204) ? 0 : 1),
	},
	{
		name: 'Entry → Empty',
		parameters: { resource: 'entry', operation: 'empty', dataSource: departments },
		method: 'POST',
		path: /^\/v1\/data-sources\/101\/data$/,
		idempotent: true,
		effects: (sandbox) => (entries(sandbox, 101).length === 0 ? 1 : 0),
	},
	{
		name: 'Entry → Commit (updates by id)',
		parameters: {
			resource: 'entry',
			operation: 'commit',
			dataSource: staff,
			entries: '[{"id": 202, "data": {"Age": 77}}]',
			append: true,
		},
		method: 'POST',
		path: /^\/v1\/data-sources\/100\/commit$/,
		idempotent: true,
		effects: (sandbox) => entriesWhere(sandbox, 100, (data) => data.Age === 77),
	},
	{
		name: 'Entry → Import (replace)',
		parameters: { resource: 'entry', operation: 'import', dataSource: departments },
		input: [{ json: { Name: 'Only Team', Floor: 9 } }],
		setup: () => ({ importMode: 'replace' }),
		method: 'POST',
		path: /^\/v1\/data-sources\/101\/data$/,
		idempotent: true,
		effects: (sandbox) =>
			entries(sandbox, 101).length === 1 ? entriesWhere(sandbox, 101, (d) => d.Floor === 9) : 0,
	},
	{
		name: 'Notification → Update',
		parameters: {
			resource: 'notification',
			operation: 'update',
			app: APP,
			notificationId: '502',
			status: 'published',
			message: 'Changed once',
		},
		method: 'PUT',
		path: /^\/v1\/apps\/11\/notifications\/502$/,
		idempotent: true,
		effects: (sandbox) =>
			notifications(sandbox).filter((n) => n.data?.message === 'Changed once').length,
	},
	{
		name: 'Notification → Delete',
		parameters: { resource: 'notification', operation: 'delete', app: APP, notificationId: '501' },
		method: 'DELETE',
		path: /^\/v1\/apps\/11\/notifications\/501$/,
		idempotent: true,
		effects: (sandbox) => notifications(sandbox).filter((n) => n.id === 501 && n.deletedAt).length,
	},
	{
		name: 'Notification → Mark as Read',
		parameters: {
			resource: 'notification',
			operation: 'markAsRead',
			app: APP,
			recipientId: '3f2b8a9e-1c4d-4e5f-8a6b-7c8d9e0f1a2b',
			notificationIds: '501',
		},
		method: 'POST',
		path: /^\/v1\/apps\/11\/notifications\/mark-as-read$/,
		idempotent: true,
		effects: (sandbox) => (sandbox.state.readReceipts as IDataObject[]).length,
	},
	{
		name: 'Organization Token → Delete',
		parameters: { resource: 'organizationToken', operation: 'delete', organization: ORG },
		token: TOKENS.org,
		setup: async (sandbox) => ({
			token: { __rl: true, mode: 'id', value: String(await createOrgToken(sandbox, 'Temporary')) },
		}),
		method: 'DELETE',
		path: /^\/v1\/organizations\/1\/tokens\/\d+$/,
		idempotent: true,
		effects: (sandbox) =>
			[...(sandbox.state.tokens as Map<string, IDataObject>).values()].some(
				(token) => token.name === 'Temporary',
			)
				? 0
				: 1,
	},

	// Non-idempotent writes: sent exactly once; the error says it may have been processed.
	{
		name: 'App → Publish',
		parameters: { resource: 'app', operation: 'publish', app: APP, releaseType: 'silent' },
		method: 'POST',
		path: /^\/v1\/apps\/11\/publish$/,
		idempotent: false,
		effects: (sandbox) =>
			Number((sandbox.state.apps as IDataObject[]).find((app) => app.id === 10)?.version) - 1,
	},
	{
		name: 'Email → Send',
		parameters: { resource: 'email', operation: 'send', to: 'ann@example.com', subject: 'Hi' },
		method: 'POST',
		path: /^\/v1\/communicate\/email$/,
		idempotent: false,
		effects: (sandbox) => sandbox.state.sent.emails.length,
	},
	{
		name: 'SMS → Send',
		parameters: { resource: 'sms', operation: 'send', to: '+447700900123', message: 'Hi' },
		method: 'POST',
		path: /^\/v1\/communicate\/sms$/,
		idempotent: false,
		effects: (sandbox) => sandbox.state.sent.sms.length,
	},
	{
		name: 'Email → Send (in batches)',
		parameters: {
			resource: 'email',
			operation: 'send',
			to: '={{ $json.to }}',
			subject: 'Hi',
			sendInBatches: true,
			batchSize: 10,
		},
		input: [{ json: { to: 'ann@example.com' } }, { json: { to: 'bob@example.com' } }],
		method: 'POST',
		path: /^\/v1\/communicate\/email\/batch$/,
		idempotent: false,
		effects: (sandbox) => (sandbox.state.sent.emails.length === 2 ? 1 : 0),
	},
	{
		name: 'SMS → Send (in batches)',
		parameters: {
			resource: 'sms',
			operation: 'send',
			to: '={{ $json.to }}',
			message: 'Hi',
			sendInBatches: true,
			batchSize: 10,
		},
		input: [{ json: { to: '+447700900123' } }, { json: { to: '+447700900124' } }],
		method: 'POST',
		path: /^\/v1\/communicate\/sms\/batch$/,
		idempotent: false,
		effects: (sandbox) => (sandbox.state.sent.sms.length === 2 ? 1 : 0),
	},
	{
		name: 'Notification → Create',
		parameters: {
			resource: 'notification',
			operation: 'create',
			app: APP,
			status: 'published',
			title: 'Fault drill',
			message: 'Once',
		},
		method: 'PUT',
		path: /^\/v1\/apps\/11\/notifications$/,
		idempotent: false,
		effects: (sandbox) =>
			notifications(sandbox).filter((n) => JSON.stringify(n).includes('Fault drill')).length,
	},
	{
		name: 'Notification → Create Many',
		parameters: {
			resource: 'notification',
			operation: 'createBatch',
			app: APP,
			status: 'draft',
			title: 'Batch drill',
			message: 'Once',
		},
		method: 'POST',
		path: /^\/v1\/apps\/11\/notifications\/batch$/,
		idempotent: false,
		effects: (sandbox) =>
			notifications(sandbox).filter((n) => JSON.stringify(n).includes('Batch drill')).length,
	},
	{
		name: 'Organization Token → Create',
		parameters: {
			resource: 'organizationToken',
			operation: 'create',
			organization: ORG,
			name: 'Drill',
		},
		token: TOKENS.org,
		method: 'POST',
		path: /^\/v1\/organizations\/1\/tokens$/,
		idempotent: false,
		effects: (sandbox) =>
			[...(sandbox.state.tokens as Map<string, IDataObject>).values()].filter(
				(token) => token.name === 'Drill',
			).length,
	},
	{
		name: 'AI → Generate Text',
		parameters: { resource: 'ai', operation: 'generateText', app: APP, prompt: 'Hello' },
		method: 'POST',
		path: /^\/v1\/apps\/11\/ai\/completions$/,
		idempotent: false,
		effects: (sandbox) => aiCalls(sandbox, /completions|Hello/),
	},
	{
		name: 'AI → Generate Image',
		parameters: { resource: 'ai', operation: 'generateImage', app: APP, prompt: 'A cat' },
		method: 'POST',
		path: /^\/v1\/apps\/11\/ai\/image$/,
		idempotent: false,
		effects: (sandbox) => aiCalls(sandbox, /A cat|image/),
	},
	{
		name: 'AI → Transcribe Audio',
		parameters: { resource: 'ai', operation: 'transcribeAudio', app: APP },
		input: [
			{ json: {}, binary: { data: { data: WAV, fileName: 'a.wav', mimeType: 'audio/wav' } } },
		],
		method: 'POST',
		path: /^\/v1\/apps\/11\/ai\/audio$/,
		idempotent: false,
		effects: (sandbox) => aiCalls(sandbox, /audio|transcri/),
	},
	{
		name: 'AI → Create Embeddings',
		parameters: { resource: 'ai', operation: 'createEmbeddings', app: APP, text: 'Hello' },
		method: 'POST',
		path: /^\/v1\/apps\/11\/ai\/embeddings$/,
		idempotent: false,
		effects: (sandbox) => aiCalls(sandbox, /embedding/),
	},
	{
		name: 'Data Source → Create',
		parameters: {
			resource: 'dataSource',
			operation: 'create',
			scope: 'app',
			app: APP,
			name: 'New',
		},
		method: 'POST',
		path: /^\/v1\/data-sources$/,
		idempotent: false,
		effects: (sandbox) => dataSources(sandbox).filter((ds) => ds.name === 'New').length,
	},
	{
		name: 'Entry → Insert',
		parameters: {
			resource: 'entry',
			operation: 'insert',
			dataSource: staff,
			columns: { mappingMode: 'defineBelow', value: { Name: 'Once Only' } },
		},
		method: 'PUT',
		path: /^\/v1\/data-sources\/100\/data$/,
		idempotent: false,
		effects: (sandbox) => entriesWhere(sandbox, 100, (data) => data.Name === 'Once Only'),
	},
	{
		name: 'Entry → Commit (new entries)',
		parameters: {
			resource: 'entry',
			operation: 'commit',
			dataSource: staff,
			entries: '[{"data": {"Name": "Committed Once"}}]',
			append: true,
		},
		method: 'POST',
		path: /^\/v1\/data-sources\/100\/commit$/,
		idempotent: false,
		effects: (sandbox) => entriesWhere(sandbox, 100, (data) => data.Name === 'Committed Once'),
	},
	{
		name: 'Entry → Import (append)',
		parameters: { resource: 'entry', operation: 'import', dataSource: departments },
		input: [{ json: { Name: 'Imported Once' } }],
		method: 'POST',
		path: /^\/v1\/data-sources\/101\/data$/,
		idempotent: false,
		effects: (sandbox) => entriesWhere(sandbox, 101, (data) => data.Name === 'Imported Once'),
	},
	{
		name: 'Entry → Delete Many',
		parameters: {
			resource: 'entry',
			operation: 'deleteMany',
			dataSource: staff,
			queryMode: 'json',
			where: '{"Email": "bob@example.com"}',
		},
		method: 'POST',
		path: /^\/v1\/data-sources\/100\/data\/query$/,
		idempotent: false,
		effects: (sandbox) =>
			entriesWhere(sandbox, 100, (d) => d.Email === 'bob@example.com') ? 0 : 1,
	},
];
