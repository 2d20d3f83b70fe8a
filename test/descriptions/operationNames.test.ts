import type { INodePropertyOptions, INodeType } from 'n8n-workflow';

import { packageNodeTypes } from '../harness';

let fliplet: INodeType;
beforeAll(async () => {
	fliplet = (await packageNodeTypes()).find((node) => node.description.name === 'fliplet')!;
});

/** The operations the editor lists for a resource, by value. */
function operationsOf(resource: string): Map<string, INodePropertyOptions> {
	const picker = fliplet.description.properties.find(
		(property) =>
			property.name === 'operation' &&
			(property.displayOptions?.show?.resource as string[] | undefined)?.includes(resource),
	)!;
	const options = picker.options as INodePropertyOptions[];
	return new Map(options.map((option) => [String(option.value), option]));
}

describe("Entry's operations carry n8n's CRUD names; the values saved workflows hold stay", () => {
	it.each([
		['insert', 'Create', 'Create an entry'],
		['upsert', 'Create or Update', 'Create or update an entry'],
		['update', 'Update', 'Update an entry'],
		['delete', 'Delete', 'Delete an entry'],
		['get', 'Get', 'Get an entry'],
		['getMany', 'Get Many', 'Get many entries'],
	])('%s is "%s"', (value, name, action) => {
		expect(operationsOf('entry').get(value)).toMatchObject({ name, action });
	});

	it("Create or Update has n8n's description of an upsert", () => {
		expect(operationsOf('entry').get('upsert')?.description).toBe(
			'Create a new record, or update the current one if it already exists (upsert)',
		);
	});

	it('Update says it finds its entries by ID or by Columns to Match On', () => {
		expect(operationsOf('entry').get('update')?.description).toMatch(/ID.*Columns to Match On/);
	});

	it('Commit, Delete Many, Empty, Import, Get Unique Values and Sync keep their names', () => {
		const names = [...operationsOf('entry').values()].map((option) => option.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'Commit',
				'Delete Many',
				'Empty',
				'Import',
				'Get Unique Values',
				'Sync',
			]),
		);
		expect(names).toHaveLength(12);
	});

	it('Notification → Get Push Subscriptions keeps its value', () => {
		expect(operationsOf('notification').get('listSubscriptions')?.name).toBe(
			'Get Push Subscriptions',
		);
	});
});
