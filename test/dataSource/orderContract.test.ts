/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The source-checked contract of `order` and joins (Fliplet/fliplet-cli, branch
// fix/DEV-1824-ds-order-contract): what the sandbox refuses, and that the node sends what it takes.
import {
	apiRequests,
	callSandbox,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();
const staff = { __rl: true, mode: 'id', value: '100' };

const select = (body: object, dataSource = 100) =>
	callSandbox(sandbox(), 'POST', `/v1/data-sources/${dataSource}/data/query`, body, TOKENS.org);

const getMany = (parameters: Record<string, unknown>, dataSource: unknown = staff) =>
	runNode({
		parameters: {
			resource: 'entry',
			operation: 'getMany',
			dataSource,
			returnAll: true,
			...parameters,
		} as never,
		credentials: sandboxCredential(sandbox()),
	});

/** A new data source of app 11 (no columns declared); its id. */
const newDataSource = async (name: string): Promise<number> =>
	(await callSandbox(sandbox(), 'POST', '/v1/data-sources?appId=11', { name }, TOKENS.org)).body
		.dataSource.id;

describe('Sandbox: the order contract', () => {
	it.each([
		[
			'a flat pair, read one character at a time',
			['createdAt', 'DESC'],
			'Invalid order column name: c',
		],
		['a column without data.', [['Name', 'ASC']], 'Invalid order column name: Name'],
		[
			'an entry field the list does not name',
			[['dataSourceId', 'ASC']],
			'Invalid order column name: dataSourceId',
		],
		['an undeclared column', [['data.Nickname', 'ASC']], "Column 'Nickname' does not exists"],
		[
			'a top-level field behind the prefix',
			[['data.createdAt', 'ASC']],
			"Column 'createdAt' does not exists",
		],
		['a direction that is not ASC or DESC', [['data.Name', 'UP']], 'syntax error at or near "UP"'],
	])('refuses %s with a 400', async (_label, order, message) => {
		const answer = await select({ order });
		expect(answer).toEqual({ status: 400, body: { message } });
	});

	it('takes the five entry fields unprefixed and columns verbatim, spaces included', async () => {
		const id = await newDataSource('Sessions');
		await callSandbox(sandbox(), 'POST', `/v1/data-sources/${id}/commit`, {
			entries: [
				{ data: { 'Start Time UTC': '09:00' } },
				{ data: { 'Start Time UTC': '11:00' } },
				{ data: { 'Start Time UTC': '10:00' } },
			],
			append: true,
		});
		const byStart = await select({ order: [['data.Start Time UTC', 'DESC']] }, id);
		expect(byStart.body.entries.map((entry: any) => entry.data['Start Time UTC'])).toEqual([
			'11:00',
			'10:00',
			'09:00',
		]);
		for (const field of ['id', 'order', 'createdAt', 'deletedAt', 'updatedAt'])
			expect((await select({ order: [[field, 'asc']] }, id)).status).toBe(200);
	});

	it('sorts an undeclared column as empty when the data source declares no columns', async () => {
		const answer = await select(
			{ order: [['data.Anything', 'ASC']] },
			await newDataSource('Empty'),
		);
		expect(answer).toEqual({ status: 200, body: { entries: [] } });
	});

	it('a join matches on data. paths; without the prefix it matches nothing, silently', async () => {
		const join = (on: object) => ({
			where: { Name: 'Bob Stone' },
			join: { Team: { dataSourceId: 101, on } },
		});
		const prefixed = await select(join({ 'data.Department': 'data.Name' }));
		expect(prefixed.body.entries[0].joins.Team).toEqual([
			expect.objectContaining({ id: 206, data: { Name: 'Engineering', Floor: 3 } }),
		]);
		const bare = await select(join({ Department: 'Name' }));
		expect(bare.status).toBe(200);
		expect(bare.body.entries[0].joins).toEqual({ Team: [] });
	});

	it("a join's own order is one flat pair or a column name", async () => {
		const oldest = (order: unknown) =>
			select(
				{
					where: { Name: 'Sales' },
					join: {
						People: { dataSourceId: 100, on: { 'data.Name': 'data.Department' }, order, limit: 1 },
					},
				},
				101,
			);
		const flat = await oldest(['data.Age', 'DESC']);
		expect(flat.body.entries[0].joins.People.map((e: any) => e.data.Name)).toEqual(['Carla Diaz']);
		const named = await oldest('data.Age');
		expect(named.body.entries[0].joins.People.map((e: any) => e.data.Name)).toEqual([
			'Alice Martin',
		]);
		// The top-level shape is not read inside a join: the matches keep their own order.
		const nested = await oldest([['data.Age', 'DESC']]);
		expect(nested.body.entries[0].joins.People.map((e: any) => e.data.Name)).toEqual([
			'Alice Martin',
		]);
	});
});

describe('Entry → Get Many sends what the order and join contract takes', () => {
	it('a column named like an entry field is sorted as data.<Column>', async () => {
		await callSandbox(sandbox(), 'POST', '/v1/data-sources/100/commit', {
			entries: [
				{ id: 200, data: { dataSourceId: 'b' } },
				{ id: 201, data: { dataSourceId: 'a' } },
			],
			append: true,
			extend: true,
		});
		const result = await getMany({
			sort: { property: [{ column: 'dataSourceId', direction: 'ASC' }] },
			returnAll: false,
			limit: 2,
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /query$/)[0].body.order).toEqual([
			['data.dataSourceId', 'ASC'],
			['id', 'ASC'],
		]);
		expect(result.json.map((entry: any) => entry.id)).toEqual([201, 200]);
	});

	it.each([
		[
			'an "on" column without data.',
			{ Team: { dataSourceId: 101, on: { Department: 'data.Name' } } },
			'Join "Team": "on" names "Department" without "data.": a join matches on paths of the whole entry, so it would match nothing. Write "data.Department" (or id for the entry\'s ID)',
		],
		[
			'a list of pairs as its order',
			{
				Team: {
					dataSourceId: 101,
					on: { 'data.Department': 'data.Name' },
					order: [['createdAt', 'DESC']],
				},
			},
			expect.stringMatching(/^Join "Team": "order" is one flat \[column, direction\] pair/),
		],
		[
			'an order column without data.',
			{
				Team: {
					dataSourceId: 101,
					on: { 'data.Department': 'data.Name' },
					order: ['Floor', 'DESC'],
				},
			},
			'Join "Team": "order" names "Floor": write a column as "data.<Column>" (e.g. "data.Floor"), or an entry field such as createdAt',
		],
	])('refuses a join with %s before sending', async (_label, join, message) => {
		const result = await getMany({ queryMode: 'json', join: JSON.stringify(join) });
		expect(result.error?.message).toEqual(message);
		expect(apiRequests(sandbox(), /query$/)).toHaveLength(0);
	});

	it('sends a join with data. paths and a flat order as written', async () => {
		const join = {
			People: {
				dataSourceId: 100,
				on: { 'data.Name': 'data.Department' },
				order: ['data.Age', 'DESC'],
				limit: 1,
			},
		};
		const result = await getMany(
			{ queryMode: 'json', join: JSON.stringify(join) },
			{ __rl: true, mode: 'id', value: '101' },
		);
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /query$/)[0].body.join).toEqual(join);
		expect(result.json.map((entry: any) => entry.joins.People[0].data.Name)).toEqual([
			'Carla Diaz',
			'Eve Adams',
		]);
	});
});
