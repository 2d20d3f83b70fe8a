import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import {
	apiRequests,
	FLIPLET_NODE,
	nodeTypes,
	runNode,
	sandboxCredential,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();
const staff = { __rl: true, mode: 'id', value: '100' };

function getMany(parameters: Record<string, unknown>) {
	return runNode({
		parameters: {
			resource: 'entry',
			operation: 'getMany',
			dataSource: staff,
			returnAll: true,
			...parameters,
		},
		credentials: sandboxCredential(sandbox()),
	});
}

const filter = (condition: Record<string, unknown>) => ({ filters: { conditions: [condition] } });
const sentFilters = () => apiRequests(sandbox(), /\/data\/query$/)[0].body.where.$filters;

/** The parameters n8n keeps for a node (what its Workflow does on load: hidden ones are dropped). */
function resolvedParameters(values: Record<string, unknown>): INodeParameters {
	const parameters = values as INodeParameters;
	const description = nodeTypes.getByName(FLIPLET_NODE).description;
	const node = { name: 'Fliplet', type: FLIPLET_NODE, typeVersion: 1, parameters } as INode;
	return NodeHelpers.getNodeParameters(
		description.properties as INodeProperties[],
		parameters,
		true,
		false,
		node,
		description,
	)!;
}

describe('Entry → Get Many: date filters', () => {
	it('sends no Date Unit by default, so the value is compared with its own precision', async () => {
		const result = await getMany(
			filter({ column: 'Joined', condition: 'datebefore', value: '2021-12-31' }),
		);
		expect(result.error).toBeUndefined();
		expect(sentFilters()).toEqual([
			{ column: 'Joined', condition: 'datebefore', value: '2021-12-31' },
		]);
		expect(result.json.map((entry) => (entry.data as { Joined: string }).Joined).sort()).toEqual([
			'2019-11-20',
			'2020-05-30',
			'2021-03-15',
		]);
	});

	it('sends the Date Unit when one is chosen', async () => {
		// Output "Columns Only": each item is the entry's columns alone.
		const result = await getMany({
			...filter({ column: 'Joined', condition: 'datebefore', value: '2021-12-31', unit: 'year' }),
			entryOutput: 'columns',
		});
		expect(result.error).toBeUndefined();
		expect(sentFilters()).toEqual([
			{ column: 'Joined', condition: 'datebefore', value: '2021-12-31', unit: 'year' },
		]);
		expect(result.json.map((entry) => entry.Joined).sort()).toEqual(['2019-11-20', '2020-05-30']);
		expect(result.json[0]).not.toHaveProperty('createdAt');
	});

	it('n8n keeps Date Unit only for date conditions and "To" only for the between conditions', () => {
		const rows = (condition: string) =>
			(
				resolvedParameters({
					resource: 'entry',
					operation: 'getMany',
					dataSource: staff,
					...filter({ column: 'Joined', condition, value: '1', valueTo: '2', unit: 'hour' }),
				}).filters as { conditions: Array<Record<string, unknown>> }
			).conditions[0];
		expect(rows('equals')).not.toHaveProperty('unit');
		expect(rows('equals')).not.toHaveProperty('valueTo');
		expect(rows('between')).toMatchObject({ valueTo: '2' });
		expect(rows('between')).not.toHaveProperty('unit');
		expect(rows('dateis')).toMatchObject({ unit: 'hour' });
		expect(rows('dateis')).not.toHaveProperty('valueTo');
		expect(rows('datebetween')).toMatchObject({ unit: 'hour', valueTo: '2' });
	});

	it('a date condition left at its default unit resolves to no unit', () => {
		const resolved = resolvedParameters({
			resource: 'entry',
			operation: 'getMany',
			dataSource: staff,
			...filter({ column: 'Joined', condition: 'dateis', value: '2021-03-15' }),
		}).filters as { conditions: Array<Record<string, unknown>> };
		expect(resolved.conditions[0].unit).toBe('');
	});
});

describe('Entry → Get Many: aggregation', () => {
	const base = { resource: 'entry', operation: 'getMany', dataSource: staff, queryMode: 'json' };

	it('hides Return All, Limit and Output (and shows a notice) when Aggregate is set', () => {
		const withAggregate = resolvedParameters({
			...base,
			aggregate: '[{"$group": {"_id": "$data.Department"}}]',
			returnAll: false,
			limit: 3,
			entryOutput: 'columns',
		});
		expect(withAggregate).not.toHaveProperty('returnAll');
		expect(withAggregate).not.toHaveProperty('limit');
		expect(withAggregate).not.toHaveProperty('entryOutput');
		expect(withAggregate).toHaveProperty('aggregateNotice');
		const without = resolvedParameters({
			...base,
			returnAll: false,
			limit: 3,
			entryOutput: 'columns',
		});
		expect(without).toMatchObject({ returnAll: false, limit: 3, entryOutput: 'columns' });
		expect(without).not.toHaveProperty('aggregateNotice');
	});
});
