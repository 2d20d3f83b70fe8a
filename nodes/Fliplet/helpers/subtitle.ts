import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * The action text of every operation (as the node panel lists it), keyed `resource:operation`,
 * read from the node's own Operation fields.
 */
export function operationActions(properties: INodeProperties[]): Record<string, string> {
	const actions: Record<string, string> = {};
	for (const property of properties) {
		if (property.name !== 'operation' || property.type !== 'options') continue;
		for (const resource of property.displayOptions?.show?.resource ?? []) {
			for (const option of (property.options ?? []) as INodePropertyOptions[]) {
				actions[`${String(resource)}:${String(option.value)}`] = option.action ?? option.name;
			}
		}
	}
	return actions;
}

/**
 * A subtitle expression that shows a label for the node's current parameters: `labels` keyed by
 * the parameter values joined with ":" (e.g. "entry:getMany" → "Get many entries"). Falls back to
 * the raw values for a key the table lacks.
 */
export function labelSubtitle(labels: Record<string, string>, parameters: string[]): string {
	const key = parameters.map((name) => `$parameter[${JSON.stringify(name)}]`).join(' + ":" + ');
	return `={{ (${JSON.stringify(labels)})[${key}] || ${key} }}`;
}

/** The label of each option of an options field, by value (e.g. the trigger's events). */
export function optionLabels(property: INodeProperties): Record<string, string> {
	return Object.fromEntries(
		((property.options ?? []) as INodePropertyOptions[]).map((option) => [
			String(option.value),
			option.name,
		]),
	);
}
