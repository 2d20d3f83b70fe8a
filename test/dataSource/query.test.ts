/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();
const staff = { __rl: true, mode: 'id', value: '100' };

async function query(parameters: Record<string, unknown>) {
	const result = await runNode({
		parameters: {
			resource: 'entry',
			operation: 'getMany',
			dataSource: staff,
			returnAll: true,
			...parameters,
		} as never,
		credentials: sandboxCredential(sandbox()),
	});
	expect(result.error).toBeUndefined();
	const bodies = apiRequests(sandbox(), /\/data\/query$/).map((request) => request.body);
	return {
		result,
		bodies,
		names: result.json.map((entry) => (entry.data as { Name?: string } | undefined)?.Name),
	};
}

const filter = (column: string, condition: string, value = '', valueTo?: string) => ({
	column,
	condition,
	value,
	...(valueTo === undefined ? {} : { valueTo }),
});

describe('Entry Get Many / Query', () => {
	it('Simple filters become $filters conditions: contains, oneof, between', async () => {
		const { bodies, names, result } = await query({
			filters: {
				conditions: [
					filter('Email', 'contains', 'EXAMPLE.COM'),
					filter('Department', 'oneof', 'sales, support'),
					filter('Age', 'between', '20', '40'),
				],
			},
		});
		expect(bodies[0].where).toEqual({
			$filters: [
				{ column: 'Email', condition: 'contains', value: 'EXAMPLE.COM' },
				{ column: 'Department', condition: 'oneof', value: ['sales', 'support'] },
				{ column: 'Age', condition: 'between', value: { from: 20, to: 40 } },
			],
		});
		expect(bodies[0]).toMatchObject({ type: 'select', includePagination: true, offset: 0 });
		expect(names).toEqual(['Alice Martin', 'Dan Wu']);
		// The entry shape: the API's entry, columns under data.
		expect(result.json[0]).toEqual({
			id: 200,
			dataSourceId: 100,
			createdAt: expect.any(String),
			updatedAt: expect.any(String),
			data: expect.objectContaining({ Name: 'Alice Martin' }),
		});
	});

	it('Exact conditions become document-database operators: $gte, $in, $regex', async () => {
		const { bodies, names } = await query({
			filters: {
				conditions: [
					filter('Age', '$gte', '30'),
					filter('Department', '$in', 'Sales,Engineering'),
					filter('Name', '$regex', '^[AE]'),
				],
			},
		});
		expect(bodies[0].where).toEqual({
			$and: [
				{ Age: { $gte: 30 } },
				{ Department: { $in: ['Sales', 'Engineering'] } },
				{ Name: { $regex: '^[AE]' } },
			],
		});
		expect(names).toEqual(['Alice Martin', 'Eve Adams']);
	});

	it('date conditions carry their unit', async () => {
		const { bodies, names } = await query({
			filters: {
				conditions: [
					{ column: 'Joined', condition: 'dateafter', value: '2021-12-31', unit: 'year' },
				],
			},
		});
		expect(bodies[0].where.$filters).toEqual([
			{ column: 'Joined', condition: 'dateafter', value: '2021-12-31', unit: 'year' },
		]);
		expect(names).toEqual(['Bob Stone', 'Dan Wu']);
	});

	it('sort rules, columns to return and the raw output', async () => {
		const { bodies, result } = await query({
			sort: {
				property: [
					{ column: 'Department', direction: 'ASC' },
					{ column: 'Age', direction: 'DESC' },
				],
			},
			options: { attributes: 'Name, Age', output: 'raw' },
		});
		// The entry id breaks ties, so pages of a sorted read stay in one fixed order.
		expect(bodies[0].order).toEqual([
			['data.Department', 'ASC'],
			['data.Age', 'DESC'],
			['id', 'ASC'],
		]);
		expect(bodies[0].attributes).toEqual(['id', 'data.Name', 'data.Age']);
		expect(result.json).toHaveLength(1);
		expect(result.json[0].entries).toEqual([
			{ id: 204, data: { Name: 'Eve Adams', Age: 39 } },
			{ id: 201, data: { Name: 'Bob Stone', Age: 28 } },
			{ id: 202, data: { Name: 'Carla Diaz', Age: 45 } },
			{ id: 200, data: { Name: 'Alice Martin', Age: 34 } },
			{ id: 203, data: { Name: 'Dan Wu', Age: 23 } },
		]);
		expect(result.json[0].pagination).toMatchObject({ total: 5 });
	});

	it('Return All reads page after page, each page starting at the last entry read, up to the total', async () => {
		const many = Array.from({ length: 25 }, (_, n) => ({ data: { Name: `Row ${n}`, n } }));
		const { commit } = await import('./commitHelper');
		await commit(sandbox(), 100, many);
		const { bodies, result } = await query({ options: { pageSize: 10 } });
		expect(bodies.map((body) => [body.offset, body.limit])).toEqual([
			[0, 10],
			[9, 11],
			[19, 11],
		]);
		expect(bodies[0].order).toEqual([['id', 'ASC']]);
		expect(result.json).toHaveLength(30);
		expect(result.json[29]).toMatchObject({ data: { Name: 'Row 24', n: 24 }, dataSourceId: 100 });
		expect(new Set(result.json.map((entry) => entry.id)).size).toBe(30);
	});

	it('a limit below the page size reads one page of that size', async () => {
		const { bodies, result } = await query({ returnAll: false, limit: 2 });
		expect(bodies).toHaveLength(1);
		expect(bodies[0]).toMatchObject({ limit: 2, offset: 0 });
		expect(result.json.map((entry) => entry.id)).toEqual([200, 201]);
	});

	it('JSON mode: where with operators and an aggregation pipeline over whole entries', async () => {
		const { bodies, result } = await query({
			queryMode: 'json',
			where: JSON.stringify({ Age: { $gte: 25 } }),
			aggregate: JSON.stringify([
				{
					$group: { _id: '$data.Department', count: { $sum: 1 }, oldest: { $max: '$data.Age' } },
				},
				{ $sort: { _id: 1 } },
			]),
		});
		expect(bodies[0]).toMatchObject({
			where: { Age: { $gte: 25 } },
			aggregate: [expect.any(Object), expect.any(Object)],
		});
		expect(bodies[0]).not.toHaveProperty('limit');
		expect(result.json).toEqual([
			{ _id: 'Engineering', count: 2, oldest: 39 },
			{ _id: 'Sales', count: 2, oldest: 45 },
		]);
	});

	it('JSON mode: $convertToNumber sums text numbers', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: { __rl: true, mode: 'name', value: '2024' },
				queryMode: 'json',
				aggregate:
					'[{"$group": {"_id": null, "revenue": {"$sum": {"$convertToNumber": "$data.Revenue"}}}}]',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ _id: null, revenue: 2180.5 }]);
		expect(apiRequests(sandbox(), /query$/)[0].query).toEqual({ dsn: 'true' });
	});

	it("JSON mode: the pipeline also reads the entry's own fields ($id, $createdAt)", async () => {
		const { result } = await query({
			queryMode: 'json',
			where: JSON.stringify({ Department: 'Sales' }),
			aggregate: JSON.stringify([
				{
					$group: {
						_id: '$data.Department',
						firstId: { $min: '$id' },
						lastId: { $max: '$id' },
						since: { $min: '$createdAt' },
					},
				},
			]),
		});
		const sales = sandbox().state.entries.filter(
			(entry: any) => entry.dataSourceId === 100 && entry.data.Department === 'Sales',
		);
		expect(sales.length).toBeGreaterThan(1);
		expect(result.json).toEqual([
			{
				_id: 'Sales',
				firstId: Math.min(...sales.map((entry: any) => entry.id)),
				lastId: Math.max(...sales.map((entry: any) => entry.id)),
				since: sales.map((entry: any) => entry.createdAt).sort()[0],
			},
		]);
	});

	it('JSON mode: a join returns the matches under "joins"', async () => {
		const { bodies, result } = await query({
			queryMode: 'json',
			where: '{"Department": "Engineering"}',
			join: JSON.stringify({ Team: { dataSourceId: 101, on: { 'data.Department': 'data.Name' } } }),
		});
		expect(bodies[0].join).toEqual({
			Team: { dataSourceId: 101, on: { 'data.Department': 'data.Name' } },
		});
		expect(result.json).toHaveLength(2);
		expect(result.json[0]).toMatchObject({
			data: { Name: 'Bob Stone' },
			joins: { Team: [{ id: 206, dataSourceId: 101, data: { Name: 'Engineering', Floor: 3 } }] },
		});
	});

	it('refuses JSON that is not an object before any request', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'getMany',
				dataSource: staff,
				queryMode: 'json',
				where: '[1]',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('Where is not a JSON object');
		expect(result.error?.description).toMatch(/\$gte/);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});

	it('waits and retries when the data source rate limit answers 429', async () => {
		sandbox().rateLimiter.enabled = true;
		sandbox().rateLimiter.limits.dataSources = { limit: 1, windowMs: 4000 };
		const fromNode = () =>
			apiRequests(sandbox(), /query$/)
				.filter((request) => request.headers['user-agent'] === 'n8n')
				.map((request) => request.status);
		try {
			const { bodies, result } = await query({ returnAll: false, limit: 1 });
			expect(fromNode()).toEqual([200]);
			expect(result.json).toHaveLength(1);
			expect(bodies.length).toBe(1);
			// Another client of the same token takes the window's one place (however long the first
			// run took on a busy machine), so the node's next request is refused and waits.
			await fetch(`${sandbox().url}/v1/data-sources/100/data/query`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'auth-token': TOKENS.app },
				body: '{}',
			});
			const second = await query({ returnAll: false, limit: 1 });
			expect(fromNode()).toEqual([200, 429, 200]);
			expect(second.result.json).toHaveLength(1);
		} finally {
			sandbox().rateLimiter.enabled = false;
		}
	});

	it('Delete Many sends a delete query and returns deletedCount', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'deleteMany',
				dataSource: staff,
				filters: { conditions: [filter('Department', 'equals', 'sales')] },
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ deletedCount: 2 }]);
		const [request] = apiRequests(sandbox(), /query$/);
		expect(request.body).toEqual({
			type: 'delete',
			where: { $filters: [{ column: 'Department', condition: '==', value: 'sales' }] },
		});
		expect(sandbox().state.entries.filter((e: any) => e.dataSourceId === 100)).toHaveLength(3);
	});

	it('Delete Many without any filter is refused before any request', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'deleteMany',
				dataSource: staff,
				queryMode: 'json',
				where: '{}',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('Delete Many needs at least one filter');
		expect(result.error?.description).toMatch(/Empty operation/);
		expect(apiRequests(sandbox(), /^\/v1\//)).toHaveLength(0);
	});
});
