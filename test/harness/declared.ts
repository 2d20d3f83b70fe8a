import type { INode, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

/** A node of the type as the editor holds it, with the given parameters. */
function editorNode(type: INodeType, parameters: INodeParameters): INode {
	return {
		id: 'declared',
		name: type.description.defaults.name ?? 'Node',
		type: `n8n-nodes-fliplet.${type.description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
}

/**
 * The parameters of a fresh node as the editor builds them: what the user chose, every other shown
 * parameter at the default the node's description declares (n8n-workflow's getNodeParameters, as
 * the editor calls it). A test built on it fails when a declared default changes.
 */
export function declaredParameters(type: INodeType, chosen: INodeParameters = {}): INodeParameters {
	const { properties } = type.description;
	const node = editorNode(type, chosen);
	return (
		NodeHelpers.getNodeParameters(properties, chosen, true, false, node, type.description) ?? {}
	);
}

/** The top-level fields the editor shows for these parameters (n8n-workflow's displayParameter). */
export function shownFields(type: INodeType, parameters: INodeParameters): INodeProperties[] {
	const node = editorNode(type, parameters);
	return type.description.properties.filter((property) =>
		NodeHelpers.displayParameter(parameters, property, node, type.description),
	);
}

/**
 * The options of a collection the editor offers (or shows) for these parameters: those whose own
 * display rules hold, `/`-paths reading the top-level parameters. Hidden ones are never offered.
 */
export function shownOptions(
	type: INodeType,
	parameters: INodeParameters,
	collection: INodeProperties,
): INodeProperties[] {
	const node = editorNode(type, parameters);
	const values = (parameters[collection.name] ?? {}) as INodeParameters;
	return ((collection.options ?? []) as INodeProperties[]).filter(
		(option) =>
			option.type !== 'hidden' &&
			NodeHelpers.displayParameter(values, option, node, type.description, parameters),
	);
}
