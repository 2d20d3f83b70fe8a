import type { IDataObject } from 'n8n-workflow';
import {
	apiRequests,
	callSandbox,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';
import { addLog } from './seedLogs';

const sandbox = useSandbox();
const org = { __rl: true, mode: 'id', value: '1' };

function getAuditLogs(parameters: Record<string, unknown>) {
	return runNode({
		parameters: {
			resource: 'organization',
			operation: 'getAuditLogs',
			organization: org,
			...parameters,
		} as never,
		credentials: sandboxCredential(sandbox(), TOKENS.org),
	});
}

/** Records of the Studio user Sandy (1) and of the app API token (102), in one session each. */
function seedSessions() {
	const at = (n: number) => new Date(Date.UTC(2026, 3, 1, 9, n)).toISOString();
	return [
		addLog(sandbox().state, {
			type: 'form.submit',
			userId: 1,
			appId: 11,
			sessionId: 9001,
			data: { form: 'Leave request' },
			createdAt: at(1),
		}),
		addLog(sandbox().state, {
			type: 'form.submit',
			userId: 102,
			appId: 11,
			sessionId: 9002,
			data: { form: 'Expenses' },
			createdAt: at(2),
		}),
		addLog(sandbox().state, {
			type: 'app.publish',
			userId: 1,
			appId: 21,
			sessionId: 9001,
			createdAt: at(3),
		}),
	];
}

describe('Organization → Get Audit Logs: the audit log screen options', () => {
	it('filters by session, user type and where, with joined fields, in one POST body', async () => {
		const [leave] = seedSessions();
		const result = await getAuditLogs({
			returnAll: true,
			filters: {
				eventTypes: 'form.submit, app.publish',
				sessionId: '9001',
				userType: ['studio'],
				where: '{"app": {"name": {"$iLike": "%directory%"}}, "dataString": {"$iLike": "%leave%"}}',
			},
			options: { fields: 'id, createdAt, type, user.email, app.name, typeDescription, dataString' },
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /\/logs$/);
		expect(request.method).toBe('POST');
		expect(request.body).toEqual({
			offset: 0,
			limit: 500,
			type: ['form.submit', 'app.publish'],
			sessionId: 9001,
			userType: ['studio'],
			where: {
				app: { name: { $iLike: '%directory%' } },
				dataString: { $iLike: '%leave%' },
			},
			fields: [
				'id',
				'createdAt',
				'type',
				'user.email',
				'app.name',
				'typeDescription',
				'dataString',
			],
			format: 'json',
		});
		expect(result.json).toEqual([
			{
				id: leave.id,
				createdAt: leave.createdAt,
				type: 'form.submit',
				user: { email: 'sandy@example.com' },
				app: { name: 'Staff Directory' },
				typeDescription: 'A form was submitted',
				dataString: '{"form":"Leave request"}',
			},
		]);
	});

	it('an API token\'s records are the "Apps and Integrations" user type', async () => {
		const [, expenses] = seedSessions();
		const result = await getAuditLogs({
			returnAll: true,
			filters: { eventTypes: 'form.submit', userType: ['app'] },
			options: { fields: 'id, user.type' },
		});
		expect(result.json).toEqual([{ id: expenses.id, user: { type: 'app' } }]);
	});

	it('Include Total Count outputs one item with the records and the number of all matches', async () => {
		for (let n = 0; n < 7; n++) addLog(sandbox().state, { type: 'form.submit' });
		const result = await getAuditLogs({
			returnAll: false,
			limit: 3,
			filters: { eventTypes: 'form.submit' },
			options: { includePagination: true },
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /\/logs$/);
		expect(request.body).toMatchObject({ includePagination: true, limit: 3 });
		expect(result.json).toHaveLength(1);
		expect(result.json[0].totalCount).toBe(7);
		expect(result.json[0].logs).toHaveLength(3);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('refuses a Where that is not a JSON object before sending', async () => {
		const result = await getAuditLogs({ returnAll: true, filters: { where: '["type"]' } });
		expect(result.error?.message).toBe('"Where (JSON)" must be a JSON object');
		expect(apiRequests(sandbox(), /\/logs$/)).toHaveLength(0);
	});
});

describe('Sandbox audit logs: GET and POST', () => {
	it('answers the same records to a GET query string and to a POST body', async () => {
		seedSessions();
		const get = await callSandbox(
			sandbox(),
			'GET',
			'/v1/organizations/1/logs?type=form.submit&sessionId=9002&includePagination=true',
			undefined,
			TOKENS.org,
		);
		const post = await callSandbox(
			sandbox(),
			'POST',
			'/v1/organizations/1/logs',
			{ type: ['form.submit'], sessionId: 9002, includePagination: true },
			TOKENS.org,
		);
		expect(get.status).toBe(200);
		expect(post.body.logs).toEqual(get.body.logs);
		expect(post.body.logs.map((log: IDataObject) => log.sessionId)).toEqual([9002]);
		expect(post.body.totalCount).toBe(1);
		expect(post.body.logs[0]).not.toHaveProperty('user');
	});

	it('refuses an unknown user type and a where that is not an object', async () => {
		const call = (body: unknown) =>
			callSandbox(sandbox(), 'POST', '/v1/organizations/1/logs', body, TOKENS.org);
		expect((await call({ userType: ['robot'] })).status).toBe(400);
		expect((await call({ where: ['x'] })).status).toBe(400);
	});

	it('writes joined fields as CSV columns', async () => {
		seedSessions();
		const result = await getAuditLogs({
			returnAll: true,
			format: 'csv',
			binaryPropertyName: 'data',
			filters: { eventTypes: 'app.publish', sessionId: '9001' },
			options: { fields: 'type, user.email, app.name' },
		});
		expect(result.error).toBeUndefined();
		const csv = Buffer.from(result.items[0].binary!.data.data, 'base64').toString('utf8');
		expect(csv).toBe('type,user.email,app.name\r\napp.publish,sandy@example.com,Field Reports\r\n');
	});
});
