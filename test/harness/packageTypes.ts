import type { ICredentialType, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { FlipletApi } from '../../credentials/FlipletApi.credentials';
import { Fliplet } from '../../nodes/Fliplet/Fliplet.node';
import { TestInput } from './testInput.node';

/** The package's own node classes, by the type name a workflow uses, plus the test input node. */
export const nodeClasses: Record<string, () => INodeType> = {
	'n8n-nodes-fliplet.fliplet': () => new Fliplet(),
	'test.input': () => new TestInput(),
};

export const credentialTypes: Record<string, ICredentialType> = {
	flipletApi: new FlipletApi(),
};

/** Lets other test files register more types (the trigger, extra credentials) without editing this one. */
export function registerNodeType(name: string, create: () => INodeType): void {
	nodeClasses[name] = create;
}

export function registerCredentialType(type: ICredentialType): void {
	credentialTypes[type.name] = type;
}

/**
 * The description of a test node that takes one input, gives one output and uses the Fliplet
 * credential (`name` is the part of its type after `test.`).
 */
export function flipletTestNodeDescription(
	name: string,
	displayName: string,
	description: string,
	defaultName = displayName,
): INodeTypeDescription {
	return {
		displayName,
		name,
		group: ['transform'],
		version: 1,
		description,
		defaults: { name: defaultName },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'flipletApi', required: true }],
		properties: [],
	} as unknown as INodeTypeDescription;
}
