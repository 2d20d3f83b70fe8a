/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INode, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { packageNodeTypes } from '../harness';

let nodes: INodeType[];

beforeAll(async () => {
	nodes = await packageNodeTypes();
});

const byName = (name: string) => nodes.find((node) => node.description.name === name)!;

/**
 * The subtitle as the editor shows it: the node's parameters with their defaults filled in, and
 * the subtitle expression evaluated by n8n-workflow's expression engine on that node.
 */
function subtitle(type: INodeType, parameters: Record<string, string>): unknown {
	const node: INode = {
		id: 'subtitle',
		name: type.description.defaults.name ?? 'Node',
		type: `n8n-nodes-fliplet.${type.description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	node.parameters =
		NodeHelpers.getNodeParameters(
			type.description.properties,
			parameters,
			true,
			false,
			node,
			type.description,
		) ?? {};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => type,
			getByNameAndVersion: () => type,
			getKnownTypes: () => ({}),
		},
	});
	return workflow.expression.getSimpleParameterValue(
		node,
		type.description.subtitle!,
		'internal',
		{},
		undefined,
		'',
	);
}

/** Every resource and operation of the action node, with the action text the node panel lists. */
function actions(type: INodeType): Array<[string, string, string]> {
	return type.description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			((property.displayOptions?.show?.resource ?? []) as string[]).flatMap((resource) =>
				(property.options as INodePropertyOptions[]).map((option): [string, string, string] => [
					resource,
					String(option.value),
					option.action!,
				]),
			),
		);
}

describe('node subtitles show what the user picked', () => {
	it('every operation of Fliplet shows its action text, as listed in the node panel', () => {
		const fliplet = byName('fliplet');
		const all = actions(fliplet);
		expect(all.length).toBeGreaterThanOrEqual(40);
		for (const [resource, operation, action] of all) {
			expect({ resource, operation, subtitle: subtitle(fliplet, { resource, operation }) }).toEqual(
				{
					resource,
					operation,
					subtitle: action,
				},
			);
		}
	});

	it.each([
		['entry', 'getMany', 'Get many entries'],
		['entry', 'sync', 'Sync rows into a data source'],
		['email', 'send', 'Send an email'],
	])('%s → %s reads "%s"', (resource, operation, text) => {
		expect(subtitle(byName('fliplet'), { resource, operation })).toBe(text);
	});

	it('a new node (only its defaults set) shows the default action', () => {
		const fliplet = byName('fliplet');
		const text = subtitle(fliplet, {});
		expect(text).toEqual(expect.any(String));
		expect(text).not.toMatch(/:/);
	});

	it('every event of Fliplet Trigger shows its name', () => {
		const trigger = byName('flipletTrigger');
		const events = trigger.description.properties.find((property) => property.name === 'event')!;
		for (const option of events.options as INodePropertyOptions[]) {
			expect(subtitle(trigger, { event: String(option.value) })).toBe(option.name);
		}
		expect(subtitle(trigger, { event: 'newEntry' })).toBe('New Data Source Entry');
	});
});

describe('the node panel entry', () => {
	// n8n's node panel merges "Fliplet" and "Fliplet Trigger" into one entry and shows the
	// trigger's description there, so that description has to describe the whole app.
	it('the trigger merged into the Fliplet entry describes the actions as well as the trigger', () => {
		const fliplet = byName('fliplet');
		const trigger = byName('flipletTrigger');
		expect(trigger.description.name.replace('Trigger', '')).toBe(fliplet.description.name);
		expect(trigger.description.description.startsWith(fliplet.description.description)).toBe(true);
		expect(trigger.description.description).toMatch(/Starts a workflow when something new happens/);
	});

	// n8n's node panel searches a node's display name and its codex aliases.
	it('the action node answers the words people type for an upsert, a table, a message', () => {
		const codex = JSON.parse(
			readFileSync(path.resolve(__dirname, '../../nodes/Fliplet/Fliplet.node.json'), 'utf8'),
		) as { alias?: string[] };
		expect(codex.alias).toEqual(
			expect.arrayContaining([
				'upsert',
				'create or update',
				'spreadsheet',
				'database',
				'table',
				'row',
				'email',
				'SMS',
				'push',
				'notification',
			]),
		);
	});

	it('every node of the package has its own description', () => {
		const descriptions = nodes.map((node) => node.description.description);
		expect(descriptions.every((text) => text.length > 20)).toBe(true);
	});
});
