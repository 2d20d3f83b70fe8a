/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// Where the platform's own sources disagree (docs/api-choices.md, "Where the witnesses
// disagree"): Get Many and Delete Many give the same result under every reading the evidence
// allows of `attributes`, `where` and a delete query's answer.
import {
	apiRequests,
	callSandbox,
	COLUMN_READINGS,
	DEFAULT_READINGS,
	DELETE_READINGS,
	FOREIGN_ATTRIBUTE_READINGS,
	runNode,
	sandboxCredential,
	setSandboxReadings,
	TOKENS,
	useSandbox,
} from '../harness';
import { dataSourceWith, runSync, storedData } from '../sync/fixtures';

const sandbox = useSandbox();
const staff = { __rl: true, mode: 'id', value: '100' };

const getMany = (parameters: Record<string, unknown>) =>
	runNode({
		parameters: {
			resource: 'entry',
			operation: 'getMany',
			dataSource: staff,
			returnAll: true,
			...parameters,
		} as never,
		credentials: sandboxCredential(sandbox()),
	});

const queries = () => apiRequests(sandbox(), /\/data\/query$/);
const staffData = () =>
	sandbox()
		.state.entries.filter((entry: any) => entry.dataSourceId === 100)
		.map((entry: any) => entry.data.Name);

// Attributes written in the other reading's form may pick nothing or be refused (a 400: a
// database refuses a column it does not know; the source-checked docs say `data.` "breaks the
// query"): every test here runs under both.
describe.each(
	COLUMN_READINGS.flatMap((readings) =>
		(['ignored', 'refused'] as const).map((foreignAttributes) => ({
			...readings,
			foreignAttributes,
		})),
	),
)(
	'Entry → Get Many with attributes read $attributes, where read $where, names in the other form $foreignAttributes',
	(readings) => {
		beforeEach(() => setSandboxReadings(sandbox(), readings));

		it('Columns to Return gives the entry ID and the chosen columns, the same in either reading', async () => {
			const result = await getMany({
				filters: { conditions: [{ column: 'Department', condition: 'equals', value: 'Sales' }] },
				options: { attributes: 'Name, Age' },
			});
			expect(result.error).toBeUndefined();
			expect(result.json).toEqual([
				{ id: 200, data: { Name: 'Alice Martin', Age: 34 } },
				{ id: 202, data: { Name: 'Carla Diaz', Age: 45 } },
			]);
			// SPEC's form first, and the bare names once more where the platform reads those.
			const spec = ['id', 'data.Name', 'data.Age'];
			expect(queries().map((query) => query.body.attributes)).toEqual(
				readings.attributes === 'prefixed' ? [spec] : [spec, ['Name', 'Age']],
			);
		});

		it('Distinct gives each combination once, the same in either reading', async () => {
			const result = await getMany({ options: { attributes: 'Department', distinct: true } });
			expect(result.error).toBeUndefined();
			expect(result.json).toEqual([
				{ data: { Department: 'Sales' } },
				{ data: { Department: 'Engineering' } },
				{ data: { Department: 'Support' } },
			]);
		});

		it('a JSON where written with data. keys is sent with column names, which every reading takes', async () => {
			const result = await getMany({
				queryMode: 'json',
				where: JSON.stringify({
					'data.Department': 'Engineering',
					$or: [{ 'data.Age': { $lt: 30 } }, { Name: 'Eve Adams' }],
				}),
			});
			expect(result.error).toBeUndefined();
			expect(result.json.map((entry: any) => entry.data.Name)).toEqual(['Bob Stone', 'Eve Adams']);
			expect(queries()[0].body.where).toEqual({
				Department: 'Engineering',
				$or: [{ Age: { $lt: 30 } }, { Name: 'Eve Adams' }],
			});
		});
	},
);

describe('Entry → Get Many: the reading of attributes is learned from the answers', () => {
	it('asks again in the bare form when no entry carries a column asked for, then keeps that form', async () => {
		setSandboxReadings(sandbox(), { attributes: 'bare' });
		const result = await getMany({ options: { attributes: 'Name', pageSize: 2 } });
		expect(result.error).toBeUndefined();
		expect(result.json.map((entry: any) => entry.data)).toEqual([
			{ Name: 'Alice Martin' },
			{ Name: 'Bob Stone' },
			{ Name: 'Carla Diaz' },
			{ Name: 'Dan Wu' },
			{ Name: 'Eve Adams' },
		]);
		const forms = queries().map((query) => query.body.attributes);
		expect(forms[0]).toEqual(['id', 'data.Name']);
		expect(forms.slice(1)).toEqual(Array(forms.length - 1).fill(['Name']));
	});

	it('keeps the first answer when the columns are empty in both forms', async () => {
		setSandboxReadings(sandbox(), { attributes: 'bare' });
		const result = await getMany({
			options: { attributes: 'Nickname' },
			returnAll: false,
			limit: 5,
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([200, 201, 202, 203, 204].map((id) => ({ id, data: {} })));
		expect(queries()).toHaveLength(2);
	});
});

// The column asked for is empty on every entry: nothing tells the readings apart unless a form is
// refused. Neither refusal may fail the query.
describe.each(FOREIGN_ATTRIBUTE_READINGS)(
	'Entry → Get Many with attributes read $attributes and names in the other form $foreignAttributes',
	(readings) => {
		beforeEach(() => setSandboxReadings(sandbox(), readings));
		const forms = () => queries().map((query) => query.body.attributes);
		const statuses = () => queries().map((query) => query.status);

		it('a column empty on every entry gives empty columns, not an error, and the form is kept', async () => {
			const result = await getMany({ options: { attributes: 'Nickname', pageSize: 2 } });
			expect(result.error).toBeUndefined();
			expect(result.json).toEqual([200, 201, 202, 203, 204].map((id) => ({ id, data: {} })));
			// SPEC's form is asked first; the other form once for a page that carried nothing (a 400
			// when that form is refused, and then SPEC's form is kept) or for SPEC's form refused.
			const spec = ['id', 'data.Nickname'];
			const refused = readings.foreignAttributes === 'refused';
			if (readings.attributes === 'prefixed' && refused) {
				expect(forms()).toEqual([spec, ['Nickname'], spec, spec]);
				expect(statuses()).toEqual([200, 400, 200, 200]);
			} else if (readings.attributes === 'bare' && refused) {
				expect(forms()).toEqual([spec, ['Nickname'], ['Nickname'], ['Nickname']]);
				expect(statuses()).toEqual([400, 200, 200, 200]);
			} else {
				// Nothing tells the readings apart: each page (pages travel together) is asked in both.
				expect(forms().filter((form) => form.length === 2)).toEqual([spec, spec, spec]);
				expect(forms().filter((form) => form.length === 1)).toEqual([
					['Nickname'],
					['Nickname'],
					['Nickname'],
				]);
			}
		});
	},
);

// Sync's read names the compared columns through the same choice of form.
describe.each(FOREIGN_ATTRIBUTE_READINGS)(
	'Entry → Sync with attributes read $attributes and names in the other form $foreignAttributes',
	(readings) => {
		beforeEach(() => setSandboxReadings(sandbox(), readings));

		it('an unchanged row changes nothing and a changed one is one update', async () => {
			const stored = [
				{ Email: 'a@x.io', Name: 'Ann' },
				{ Email: 'b@x.io', Name: 'Bob' },
			];
			const id = await dataSourceWith(sandbox(), stored);
			const result = await runSync(sandbox(), id, [stored[0], { ...stored[1], Name: 'Bo' }]);

			expect(result.error).toBeUndefined();
			expect(result.json[0]).toMatchObject({ inserted: 0, updated: 1, unchanged: 1 });
			expect(storedData(sandbox(), id)).toEqual([stored[0], { ...stored[1], Name: 'Bo' }]);
		});
	},
);

describe('Entry → Get Many: when both forms fail', () => {
	const bareForm = (body: any) => JSON.stringify(body?.attributes) === '["Name"]';
	const askBoth = async () => {
		// The platform reads bare names and refuses SPEC's `data.Name` (a 400).
		setSandboxReadings(sandbox(), { attributes: 'bare', foreignAttributes: 'refused' });
		const result = await getMany({ options: { attributes: 'Name' } });
		expect(queries().map((query) => [query.body.attributes, query.status])).toEqual([
			[['id', 'data.Name'], 400],
			[['Name'], expect.any(Number)],
		]);
		return result;
	};

	it("refused in both, the error of SPEC's form is shown, naming the item", async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			body: { message: 'Invalid where' },
			match: bareForm,
		});
		const result = await askBoth();
		expect(result.error?.message).toMatch(/column "data\.Name" does not exist/);
		expect(result.error?.context?.itemIndex).toBe(0);
	});

	it('another failure of the second form (not a refusal of its names) is the one shown', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 403,
			body: { message: 'Access denied' },
			match: bareForm,
		});
		const result = await askBoth();
		expect(result.error?.message).toMatch(/Access denied/);
		expect(result.error?.message).not.toMatch(/does not exist/);
	});
});

describe("A 400 for another reason under SPEC's reading of attributes", () => {
	// The platform reads `data.Name` (the default reading) and refuses the first query for a reason
	// of its own; asked again with bare names it answers entries with nothing picked.
	const refuseFirstQuery = () =>
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			body: { message: 'Invalid query for this data source' },
			count: 1,
			path: '/data/query$',
		});

	it('Entry → Get Many shows that 400, not an answer without entries', async () => {
		refuseFirstQuery();
		const result = await getMany({ options: { attributes: 'Name' } });
		expect(result.error?.message).toMatch(/Invalid query for this data source/);
		expect(queries().map((query) => query.body.attributes)).toEqual([
			['id', 'data.Name'],
			['Name'],
		]);
	});

	it('Entry → Sync stops on that 400 before any commit', async () => {
		const id = await dataSourceWith(
			sandbox(),
			Array.from({ length: 30 }, (_, n) => ({ Email: `p${n}@example.com`, N: n })),
		);
		refuseFirstQuery();
		const rows = Array.from({ length: 30 }, (_, n) => ({ Email: `p${n}@example.com`, N: n + 1 }));
		const result = await runSync(sandbox(), id, rows, { syncMode: 'mirror' });
		expect(result.error?.message).toMatch(/Invalid query for this data source/);
		expect(apiRequests(sandbox(), /\/commit$/)).toEqual([]);
	});
});

describe.each(DELETE_READINGS)(
	'Entry → Delete Many with a delete answered as $deleteAnswer',
	(reading) => {
		beforeEach(() => setSandboxReadings(sandbox(), reading));

		it.each(['bare', 'prefixed'] as const)(
			'reports how many entries went (where read %s)',
			async (where) => {
				setSandboxReadings(sandbox(), { where });
				const result = await runNode({
					parameters: {
						resource: 'entry',
						operation: 'deleteMany',
						dataSource: staff,
						filters: {
							conditions: [{ column: 'Department', condition: 'equals', value: 'Sales' }],
						},
					},
					credentials: sandboxCredential(sandbox()),
				});
				expect(result.error).toBeUndefined();
				expect(result.json).toEqual([{ deletedCount: 2 }]);
				expect(staffData()).toEqual(['Bob Stone', 'Dan Wu', 'Eve Adams']);
			},
		);
	},
);

describe('Entry → Delete Many reads any answer the platform may give, and never fails after the delete', () => {
	const deleteSales = () =>
		runNode({
			parameters: {
				resource: 'entry',
				operation: 'deleteMany',
				dataSource: staff,
				queryMode: 'json',
				where: '{"data.Department": "Sales"}',
			},
			credentials: sandboxCredential(sandbox()),
		});
	const answer = (body: unknown) =>
		sandbox().injectFault({
			mode: 'status-after',
			status: 200,
			body,
			method: 'POST',
			path: '/data/query$',
		});

	it.each([
		['a bare number', 2, { deletedCount: 2 }],
		['a bare list of the deleted entries', [{ id: 200 }, { id: 202 }], { deletedCount: 2 }],
		['a count under "count"', { count: 2 }, { deletedCount: 2 }],
		['an answer it cannot read', { ok: true }, { deletedCount: null, response: { ok: true } }],
	])('%s', async (_label, body, output) => {
		answer(body);
		const result = await deleteSales();
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([output]);
		// The delete ran once, with the column name every reading of where takes.
		expect(queries()).toHaveLength(1);
		expect(queries()[0].body).toEqual({ type: 'delete', where: { Department: 'Sales' } });
		expect(staffData()).toEqual(['Bob Stone', 'Dan Wu', 'Eve Adams']);
	});
});

describe('Sandbox: the disputed readings', () => {
	it('are set through the control API, refuse unknown choices, and come back to the defaults on reset', async () => {
		const set = await callSandbox(sandbox(), 'POST', '/__sandbox/readings', {
			attributes: 'bare',
			deleteAnswer: 'entries',
		});
		expect(set.body).toEqual({
			readings: { ...DEFAULT_READINGS, attributes: 'bare', deleteAnswer: 'entries' },
		});
		const bare = await callSandbox(
			sandbox(),
			'POST',
			'/v1/data-sources/100/data/query',
			{ attributes: ['Name', 'data.Age'], limit: 1 },
			TOKENS.org,
		);
		expect(bare.body.entries).toEqual([
			expect.objectContaining({
				id: 200,
				createdAt: expect.any(String),
				data: { Name: 'Alice Martin' },
			}),
		]);
		const gone = await callSandbox(
			sandbox(),
			'POST',
			'/v1/data-sources/100/data/query',
			{ type: 'delete', where: { Name: 'Dan Wu' } },
			TOKENS.org,
		);
		expect(gone.body).toEqual({ entries: [expect.objectContaining({ id: 203 })] });

		const wrong = await callSandbox(sandbox(), 'POST', '/__sandbox/readings', { where: 'both' });
		expect(wrong.status).toBe(400);
		sandbox().reset();
		const defaults = await callSandbox(sandbox(), 'GET', '/__sandbox/readings');
		expect(defaults.body.readings).toEqual(DEFAULT_READINGS);
		expect(DEFAULT_READINGS).toMatchObject({
			attributes: 'prefixed',
			where: 'bare',
			deleteAnswer: 'count',
			foreignAttributes: 'ignored',
			deletedListPath: 'either',
			updateStatus: 'draft',
			updateOrderAt: 'now',
			auditLogLimit: 'studio',
			hookTemplates: 'entry',
			oneof: 'text',
			mediaContents: 'stream',
			mediaFolderList: 'folderAlone',
			mediaList: 'location',
			mediaFolderParent: 'parentId',
			contentsImageSize: 'xlarge',
			hookValues: 'any',
			dataSourceList: 'own',
		});
		const prefixed = await callSandbox(
			sandbox(),
			'POST',
			'/v1/data-sources/100/data/query',
			{ attributes: ['id', 'Name', 'data.Age'], limit: 1 },
			TOKENS.org,
		);
		expect(prefixed.body.entries).toEqual([{ id: 200, data: { Age: 34 } }]);
	});

	it('where read prefixed addresses the entry: data.Name and id, and bare names as columns', async () => {
		setSandboxReadings(sandbox(), { where: 'prefixed' });
		const ask = async (where: object) =>
			(
				await callSandbox(
					sandbox(),
					'POST',
					'/v1/data-sources/100/data/query',
					{ where },
					TOKENS.org,
				)
			).body.entries.map((entry: any) => entry.id);
		expect(await ask({ 'data.Name': 'Bob Stone' })).toEqual([201]);
		expect(await ask({ Name: 'Bob Stone' })).toEqual([201]);
		expect(await ask({ id: { $gte: 203 } })).toEqual([203, 204]);
		setSandboxReadings(sandbox(), { where: 'bare' });
		expect(await ask({ 'data.Name': 'Bob Stone' })).toEqual([]);
	});
});
