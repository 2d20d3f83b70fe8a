import type { ICredentialType, INodeType } from 'n8n-workflow';

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
