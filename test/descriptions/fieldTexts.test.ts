import type { INodeProperties } from 'n8n-workflow';

import { FLIPLET_NODE, nodeTypes } from '../harness';

const description = () => nodeTypes.getByName(FLIPLET_NODE).description;

/** The field `name` of the operation, searched through collections and fixed collections. */
function field(name: string, operation: string, resource: string): any {
	const matches = (property: INodeProperties) =>
		(property.displayOptions?.show?.operation as string[] | undefined)?.includes(operation) &&
		(property.displayOptions?.show?.resource as string[] | undefined)?.includes(resource);
	const nested = (list: any[]): any => {
		for (const item of list) {
			if (item.name === name) return item;
			const inner = item.values ?? item.options;
			if (Array.isArray(inner) && typeof inner[0] === 'object') {
				const found = nested(inner);
				if (found) return found;
			}
		}
		return undefined;
	};
	return nested(description().properties.filter(matches));
}

const allTexts = (value: unknown): string[] =>
	typeof value === 'string'
		? [value]
		: Array.isArray(value)
			? value.flatMap(allTexts)
			: value && typeof value === 'object'
				? Object.values(value).flatMap(allTexts)
				: [];

describe('Field texts', () => {
	it('the resource picker says "App Analytics"', () => {
		const resource = description().properties.find((p) => p.name === 'resource')!;
		expect(resource.options).toContainEqual({ name: 'App Analytics', value: 'appAnalytics' });
	});

	it('Entry → Commit explains inserts and updates in the shape the node outputs entries', () => {
		const entries = field('entries', 'commit', 'entry');
		expect(JSON.parse(entries.placeholder)).toEqual([{ data: { Name: 'New' }, clientId: 'a1' }]);
		expect(entries.description).toMatch(/only "data" .* is inserted/);
		expect(entries.description).toMatch(/add its entry ID next to "data"/);
		expect(entries.description).toMatch(/the way Get and Get Many output entries/);
		// n8n's scanner wants "ID" in texts; a raw key in lowercase would be flagged.
		expect(`${entries.placeholder} ${entries.description}`).not.toMatch(/\b[iI]ds?\b/);
	});

	it('Email → Send explains that "Queue When Offline" is about offline devices', () => {
		const required = field('required', 'send', 'email');
		expect(required.displayName).toBe('Queue When Offline');
		expect(required.description).toMatch(/offline on a device/);
		expect(required.description).toMatch(/usually irrelevant/);
	});

	it('no field text holds a tab character', () => {
		const texts = allTexts(description().properties);
		expect(texts.length).toBeGreaterThan(100);
		expect(texts.filter((text) => text.includes('\t'))).toEqual([]);
	});

	it('Data Source → Get Many / Create pick the organization with the shared organization locator', () => {
		for (const operation of ['getMany', 'create']) {
			const organization = field('organizationId', operation, 'dataSource');
			expect(organization.type).toBe('resourceLocator');
			expect(organization.modes.map((mode: any) => mode.name)).toEqual(['list', 'id']);
			expect(organization.modes[0].typeOptions.searchListMethod).toBe('searchOrganizations');
		}
	});

	it('Notification → Update offers "Keep Current" as the default status', () => {
		const status = field('status', 'update', 'notification');
		expect(status.default).toBe('keep');
		expect(status.options.map((option: any) => option.value)).toEqual([
			'draft',
			'keep',
			'published',
			'scheduled',
		]);
		const createStatus = field('status', 'create', 'notification');
		expect(createStatus.options.map((option: any) => option.value)).not.toContain('keep');
	});
});
