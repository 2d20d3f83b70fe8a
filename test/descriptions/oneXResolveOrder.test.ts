import type { INodeProperties, INodeType } from 'n8n-workflow';

import { packageNodeTypes } from '../harness';

let nodes: INodeType[];
beforeAll(async () => {
	nodes = await packageNodeTypes();
});

/**
 * n8n 1.x resolves a node's top-level parameters in the order their display rules need: a rule's
 * key must be a top-level parameter's name, a root path ('/…', taken as resolved) or a special
 * ('@version'). Any other key (such as a dotted 'columns.mappingMode') never resolves, and 1.x
 * refuses to run or activate the workflow ("Could not resolve parameter dependencies. Max
 * iterations reached!"). n8n 2.x is lenient, so only this rule, or the 1.123 tier, sees it.
 */
function keysOneXCannotResolve(properties: INodeProperties[]): string[] {
	const topLevel = new Set(properties.map((property) => property.name));
	const unresolved: string[] = [];
	for (const property of properties) {
		for (const rule of Object.values(property.displayOptions ?? {})) {
			for (const key of Object.keys(rule ?? {})) {
				if (key.startsWith('/') || key.startsWith('@') || topLevel.has(key)) continue;
				unresolved.push(`${property.name} → ${key}`);
			}
		}
	}
	return unresolved;
}

describe('display rules n8n 1.x can order', () => {
	it('every top-level rule of every node names a top-level parameter, a root path or a special', () => {
		expect(nodes.length).toBeGreaterThanOrEqual(5);
		for (const node of nodes) {
			expect({
				node: node.description.name,
				unresolved: keysOneXCannotResolve(node.description.properties),
			}).toEqual({ node: node.description.name, unresolved: [] });
		}
	});

	it('the rule sees a dotted key no top-level parameter has', () => {
		const properties: INodeProperties[] = [
			{ displayName: 'Columns', name: 'columns', type: 'string', default: '' },
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				displayOptions: { show: { 'columns.mappingMode': ['autoMapInputData'] } },
				options: [],
			},
		];
		expect(keysOneXCannotResolve(properties)).toEqual(['options → columns.mappingMode']);
	});
});
