import type { INodeParameters } from 'n8n-workflow';

import { callSandbox, TOKENS, type Sandbox, type TestItem } from '../harness';

/**
 * One operation of the Fliplet node, set up so that a run with one ordinary item succeeds: the
 * fields hold valid values, so a hostile value put into any one of them is what the run is about.
 */
export interface OperationCase {
	parameters: INodeParameters;
	token?: keyof typeof TOKENS;
	/** The input item for the n-th hostile value (row data, files); `{ v }` is added to its JSON. */
	item?: (index: number) => TestItem;
	/** Sets the sandbox up before the run (e.g. a deleted data source to restore). */
	setup?: (sandbox: Sandbox) => Promise<void>;
}

const APP = { __rl: true, mode: 'id', value: '11' };
const ORG = { __rl: true, mode: 'id', value: '1' };
const STAFF = { __rl: true, mode: 'id', value: '100' };
const DEPARTMENTS = { __rl: true, mode: 'id', value: '101' };
/** The version the fixture keeps of Staff. */
const STAFF_VERSION = '1000';
const RECIPIENT = '3f2b8a9e-1c4d-4e5f-8a6b-7c8d9e0f1a2b';
const WAV = Buffer.concat([Buffer.from('RIFF0000WAVEfmt '), Buffer.alloc(64)]).toString('base64');

const photoItem = (): TestItem => ({
	json: {},
	binary: { data: { data: 'aGk=', fileName: 'photo.png', mimeType: 'image/png' } },
});

/**
 * A media folder of app 11 with a file in it, made by the organization token: ids 1001 and 1002
 * in a fresh sandbox (the fixture hands out ids from 1001 on).
 */
const MEDIA_FOLDER = '1001';
const MEDIA_FILE = '1002';
async function mediaFolderWithFile(sandbox: Sandbox) {
	const folder = await callSandbox(
		sandbox,
		'POST',
		'/v1/media/folders',
		{ name: 'Case', appId: 11 },
		TOKENS.org,
	);
	const form = new FormData();
	form.append('files[0]', new Blob([Buffer.from('hi')], { type: 'image/png' }), 'hi.png');
	const file = await callSandbox(
		sandbox,
		'POST',
		`/v1/media/files?folderId=${folder.body.id}`,
		form,
		TOKENS.org,
	);
	expect([String(folder.body.id), String(file.body.files[0].id)]).toEqual([
		MEDIA_FOLDER,
		MEDIA_FILE,
	]);
}

/** Every location field of a media operation holds something valid (the folder of mediaFolderWithFile). */
const MEDIA_LOCATION = { location: 'app', app: APP, organization: ORG, folderId: MEDIA_FOLDER };

const row = (index: number): TestItem => ({
	json: { Email: `row${index}@example.com`, Name: `Row ${index}` },
});

const notification = {
	app: APP,
	title: 'Title',
	message: 'Hello',
	orderAt: '2030-01-01T10:00:00',
	additionalData: '{"source": "test"}',
	scopeMode: 'match',
	scopeConditions: { condition: [{ column: 'Department', values: 'Sales' }] },
	scopeJson: '{"Department": ["Sales"]}',
	// Published: a draft may not carry a push, and the push fields are to be fed too.
	status: 'published',
	sendPush: true,
	push: { title: 'Push title', body: 'Push body', linkScreen: '', sound: 'default' },
};

/** Every operation of the node; the hostile-input test fails for one missing here. */
export const OPERATION_CASES: Record<string, OperationCase> = {
	'ai.createEmbeddings': {
		parameters: {
			app: APP,
			model: 'text-embedding-3-small',
			inputSource: 'text',
			text: 'hello',
			field: 'text',
		},
		item: () => ({ json: { text: 'hello' } }),
	},
	'ai.generateImage': { parameters: { app: APP, model: 'gpt-image-1', prompt: 'A lighthouse' } },
	'ai.generateText': {
		parameters: {
			app: APP,
			model: 'gpt-4o-mini',
			prompt: 'Hi',
			systemMessage: 'Be brief',
			messages: { message: [{ role: 'user', content: 'Hi' }] },
			jsonBody: '{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hi"}]}',
		},
	},
	'ai.transcribeAudio': {
		parameters: { app: APP, binaryPropertyName: 'data' },
		item: () => ({
			json: {},
			binary: { data: { data: WAV, fileName: 'a.wav', mimeType: 'audio/wav' } },
		}),
	},
	'app.getMany': { parameters: { returnAll: true } },
	'app.publish': { parameters: { app: APP, releaseType: 'silent', changelog: 'Fixes' } },
	'appAnalytics.getSessions': { parameters: { app: APP, returnAll: true } },
	'dataSource.create': {
		parameters: { scope: 'app', app: APP, organizationId: ORG, name: 'Created', type: 'list' },
		token: 'org',
	},
	'dataSource.delete': { parameters: { dataSource: DEPARTMENTS } },
	'dataSource.get': { parameters: { dataSource: STAFF } },
	'dataSource.getMany': {
		parameters: { scope: 'app', app: APP, organizationId: ORG, type: '', returnAll: true },
		token: 'org',
	},
	'dataSource.getManyDeleted': {
		parameters: { deletedScope: 'app', app: APP, returnAll: true },
		token: 'org',
	},
	'dataSource.restore': {
		parameters: { dataSourceId: DEPARTMENTS },
		token: 'org',
		setup: async (sandbox) => {
			await callSandbox(sandbox, 'DELETE', '/v1/data-sources/101', undefined, TOKENS.org);
		},
	},
	'dataSource.update': {
		parameters: { dataSource: STAFF, updateFields: { name: 'Staff', columns: 'Name, Email' } },
	},
	'dataSourceVersion.getEntries': {
		parameters: { dataSource: STAFF, versionId: STAFF_VERSION, where: '{}', returnAll: true },
	},
	'dataSourceVersion.getMany': { parameters: { dataSource: STAFF, returnAll: true } },
	'dataSourceVersion.restore': { parameters: { dataSource: STAFF, versionId: STAFF_VERSION } },
	'email.send': {
		parameters: {
			to: 'Ann <ann@example.com>',
			subject: 'Hello',
			html: '<p>Hello</p>',
			sendInBatches: true,
			batchSize: 50,
			options: {
				cc: 'cc@example.com',
				bcc: 'bcc@example.com',
				fromName: 'Sender',
				binaryProperties: '',
				attachments: {
					attachment: [
						{ name: 'note.txt', mimeType: 'text/plain', content: 'aGk=', encoding: 'base64' },
					],
				},
				headers: { header: [{ name: 'X-Campaign', value: 'spring' }] },
			},
		},
	},
	'entry.commit': {
		parameters: { dataSource: STAFF, entries: '[{"data": {"Name": "Committed"}}]', append: true },
	},
	'entry.delete': { parameters: { dataSource: STAFF, entryId: '200' } },
	'entry.deleteMany': {
		parameters: {
			dataSource: STAFF,
			queryMode: 'simple',
			filters: { conditions: [{ column: 'Name', condition: '$eq', value: 'Nobody' }] },
			where: '{"Name": "Nobody"}',
		},
	},
	'entry.empty': { parameters: { dataSource: STAFF } },
	'entry.get': { parameters: { dataSource: STAFF, entryId: '200' } },
	'entry.getMany': {
		parameters: {
			dataSource: STAFF,
			queryMode: 'simple',
			filters: { conditions: [{ column: 'Name', condition: '$eq', value: 'Alice Martin' }] },
			where: '{"Name": "Alice Martin"}',
			aggregate: '[{"$group": {"_id": "$data.Department", "count": {"$sum": 1}}}]',
			join: '{}',
			returnAll: true,
			options: { attributes: 'Name, Email' },
		},
	},
	'entry.getUniqueValues': { parameters: { dataSource: STAFF, uniqueColumns: 'Department' } },
	'entry.import': { parameters: { dataSource: STAFF }, item: row },
	'entry.insert': {
		parameters: {
			dataSource: STAFF,
			columns: { mappingMode: 'defineBelow', value: { Name: 'Inserted' } },
			files: { file: [{ column: 'Photo', binaryPropertyName: 'data' }] },
		},
		item: photoItem,
	},
	'entry.sync': {
		parameters: {
			dataSource: STAFF,
			keyColumns: 'Email',
			syncOptions: { deleteColumn: 'Deleted', timestampColumn: 'Joined' },
		},
		item: row,
	},
	'entry.update': {
		parameters: {
			dataSource: STAFF,
			entryId: '200',
			columns: { mappingMode: 'defineBelow', value: { Name: 'Updated' } },
			files: { file: [{ column: 'Photo', binaryPropertyName: 'data' }] },
		},
		item: photoItem,
	},
	'entry.upsert': {
		parameters: {
			dataSource: STAFF,
			columns: {
				mappingMode: 'defineBelow',
				value: { Email: 'alice@example.com', Name: 'Upserted' },
				matchingColumns: ['Email'],
			},
		},
		item: row,
	},
	'mediaFile.delete': {
		parameters: { fileId: MEDIA_FILE },
		token: 'org',
		setup: mediaFolderWithFile,
	},
	'mediaFile.download': {
		parameters: {
			fileId: MEDIA_FILE,
			binaryPropertyName: 'data',
			options: { size: 'small', format: 'jpg', quality: 80 },
		},
		token: 'org',
		setup: mediaFolderWithFile,
	},
	'mediaFile.getMany': {
		parameters: { ...MEDIA_LOCATION, returnAll: true },
		token: 'org',
		setup: mediaFolderWithFile,
	},
	'mediaFile.upload': {
		parameters: {
			...MEDIA_LOCATION,
			binaryPropertyName: 'data',
			options: { fileName: 'photo.png' },
		},
		token: 'org',
		item: photoItem,
		setup: mediaFolderWithFile,
	},
	'mediaFolder.create': {
		parameters: { ...MEDIA_LOCATION, name: 'New' },
		token: 'org',
		setup: mediaFolderWithFile,
	},
	'mediaFolder.delete': {
		parameters: { folderId: MEDIA_FOLDER },
		token: 'org',
		setup: mediaFolderWithFile,
	},
	'mediaFolder.getMany': {
		parameters: { ...MEDIA_LOCATION, returnAll: true },
		token: 'org',
		setup: mediaFolderWithFile,
	},
	'notification.create': { parameters: notification },
	'notification.createBatch': { parameters: notification },
	'notification.delete': { parameters: { app: APP, notificationId: '501' } },
	'notification.getMany': {
		parameters: { app: APP, returnAll: true, options: { where: '{}', scope: '{}' } },
	},
	'notification.listSubscriptions': { parameters: { app: APP, returnAll: true }, token: 'studio' },
	'notification.markAsRead': {
		parameters: { app: APP, recipientId: RECIPIENT, notificationIds: '501' },
	},
	'notification.update': {
		parameters: { ...notification, notificationId: '501', dataMode: 'merge' },
	},
	'organization.getAnalytics': {
		parameters: { organization: ORG, startDate: '2026-01-01', endDate: '2026-01-31' },
		token: 'org',
	},
	'organization.getAuditLogs': {
		parameters: {
			organization: ORG,
			format: 'csv',
			binaryPropertyName: 'data',
			returnAll: false,
			limit: 5,
			filters: {
				app: APP,
				eventTypes: 'app.publish',
				sessionId: '7012',
				where: '{}',
			},
			options: { fields: 'id, type' },
		},
		token: 'org',
	},
	'organizationToken.create': { parameters: { organization: ORG, name: 'Robot' }, token: 'org' },
	'organizationToken.delete': {
		parameters: { organization: ORG, token: { __rl: true, mode: 'id', value: '104' } },
		token: 'org',
	},
	'organizationToken.getMany': { parameters: { organization: ORG, returnAll: true }, token: 'org' },
	'sms.send': {
		parameters: {
			from: '+447700900456',
			to: '+447700900123',
			message: 'Hello',
			sendInBatches: true,
			batchSize: 50,
		},
	},
	'user.get': { parameters: {} },
};
