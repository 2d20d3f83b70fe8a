import type { INode, INodeParameters } from 'n8n-workflow';

/**
 * A Fliplet node as a workflow holds it, for the pure-helper tests that build errors without
 * running a workflow (an error names the node it came from).
 */
export function stubNode(parameters: INodeParameters = {}): INode {
	return {
		id: 'n',
		name: 'Fliplet',
		type: 'n8n-nodes-fliplet.fliplet',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
}
