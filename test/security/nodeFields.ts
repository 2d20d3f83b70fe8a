import type {
	IDataObject,
	INodeProperties,
	INodePropertyCollection,
	INodeParameters,
} from 'n8n-workflow';

import { FLIPLET_NODE, nodeTypes } from '../harness';

/** Field types whose value is text a user, an expression or an AI agent can fill freely. */
const TEXT_TYPES = new Set(['string', 'json', 'resourceLocator', 'dateTime']);

/** One level on the way to a field: the property, and the group when it is a fixed collection. */
interface Step {
	property: INodeProperties;
	group?: INodePropertyCollection;
}

/** A text field of one operation of the node, and how to reach it in the parameters. */
export interface TextField {
	/** `resource.operation`. */
	operation: string;
	/** The field's path in the parameters, e.g. `options.attachments.attachment.name`. */
	path: string;
	type: string;
	/** The locator mode the value is given in (`id`, `name`, `url`), for a resource locator. */
	mode?: string;
	steps: Step[];
}

const description = () => nodeTypes.getByName(FLIPLET_NODE).description;

const shownFor = (property: INodeProperties, resource: string, operation: string) => {
	const show = property.displayOptions?.show ?? {};
	const has = (key: string, value: string) =>
		!show[key] || (show[key] as unknown[]).includes(value);
	return has('resource', resource) && has('operation', operation);
};

function* textFields(properties: INodeProperties[], steps: Step[]): Generator<Step[]> {
	for (const property of properties) {
		if (TEXT_TYPES.has(property.type)) yield [...steps, { property }];
		if (property.type === 'collection') {
			yield* textFields(property.options as INodeProperties[], [...steps, { property }]);
		}
		if (property.type === 'fixedCollection') {
			for (const group of property.options as INodePropertyCollection[]) {
				yield* textFields(group.values, [...steps, { property, group }]);
			}
		}
	}
}

/** Every operation of the node as `resource.operation`, from its description. */
export function nodeOperations(): string[] {
	const { properties } = description();
	const resources = properties.find((property) => property.name === 'resource')!.options as Array<{
		value: string;
	}>;
	return resources.flatMap(({ value: resource }) => {
		const picker = properties.find(
			(property) => property.name === 'operation' && shownFor(property, resource, ''),
		);
		return (picker?.options as Array<{ value: string }>).map(({ value }) => `${resource}.${value}`);
	});
}

/**
 * Every text field of every operation, read from the node's description (a field added later is
 * covered without a change here); a resource locator once per mode a user can type a value in.
 */
export function nodeTextFields(): TextField[] {
	const { properties } = description();
	return nodeOperations().flatMap((operation) => {
		const [resource, name] = operation.split('.');
		const own = properties.filter(
			(property) =>
				!['resource', 'operation'].includes(property.name) && shownFor(property, resource, name),
		);
		return [...textFields(own, [])].flatMap((steps) => {
			const path = steps
				.flatMap(({ property, group }) => [property.name, group?.name ?? []])
				.flat();
			const leaf = steps.at(-1)!.property;
			const field = { operation, path: path.join('.'), type: leaf.type, steps };
			if (leaf.type !== 'resourceLocator') return [field];
			return (leaf.modes ?? [])
				.filter((mode) => mode.name !== 'list')
				.map((mode) => ({ ...field, mode: mode.name }));
		});
	});
}

const defaultsOf = (properties: INodeProperties[]): IDataObject =>
	Object.fromEntries(properties.map((property) => [property.name, property.default]));

/** Makes the property shown: sets what its display conditions ask for, where they look. */
function showProperty(root: IDataObject, container: IDataObject, property: INodeProperties) {
	for (const [key, allowed] of Object.entries(property.displayOptions?.show ?? {})) {
		if (key === 'resource' || key === 'operation' || !Array.isArray(allowed)) continue;
		const target = key.startsWith('/') ? root : container;
		const name = key.replace(/^\//, '');
		const wanted = allowed[0];
		if (wanted === null || typeof wanted === 'object') continue;
		if (!(allowed as unknown[]).includes(target[name])) target[name] = wanted;
	}
}

/**
 * The parameters with `value` in the field, and the field shown: the collections and groups on
 * its way are created (a group from its first entry, or its defaults), and the options its display
 * conditions depend on are set.
 */
export function withField(
	parameters: INodeParameters,
	field: TextField,
	value: unknown,
): INodeParameters {
	const root = structuredClone(parameters) as IDataObject;
	let container = root;
	field.steps.forEach(({ property, group }, index) => {
		showProperty(root, container, property);
		if (index === field.steps.length - 1) {
			container[property.name] = value as IDataObject[string];
			return;
		}
		const holder = { ...((container[property.name] as IDataObject) ?? {}) };
		container[property.name] = holder;
		if (!group) {
			container = holder;
			return;
		}
		const multiple = property.typeOptions?.multipleValues === true;
		const existing = holder[group.name] as IDataObject | IDataObject[] | undefined;
		const first = Array.isArray(existing) ? existing[0] : existing;
		const entry = { ...defaultsOf(group.values), ...(first ?? {}) };
		holder[group.name] = multiple ? [entry] : entry;
		container = entry;
	});
	return root as INodeParameters;
}

/** The value the parameters hold at the field's path (the first entry of a group), if any. */
export function valueAt(parameters: INodeParameters, field: TextField): unknown {
	let value: unknown = parameters;
	for (const { property, group } of field.steps) {
		value = (value as IDataObject | undefined)?.[property.name];
		if (group) {
			value = (value as IDataObject | undefined)?.[group.name];
			if (Array.isArray(value)) value = value[0];
		}
	}
	return value;
}

/** Whether the parameters already show the field (its display conditions hold as they are). */
export function isShown(parameters: INodeParameters, field: TextField): boolean {
	const root = parameters as IDataObject;
	let container: IDataObject | undefined = root;
	return field.steps.every(({ property, group }) => {
		const holds = Object.entries(property.displayOptions?.show ?? {}).every(([key, allowed]) => {
			if (key === 'resource' || key === 'operation' || !Array.isArray(allowed)) return true;
			const target = key.startsWith('/') ? root : container;
			return (allowed as unknown[]).includes(target?.[key.replace(/^\//, '')]);
		});
		let next = container?.[property.name] as IDataObject | IDataObject[] | undefined;
		if (group) next = (next as IDataObject | undefined)?.[group.name] as IDataObject | undefined;
		container = Array.isArray(next) ? next[0] : next;
		return holds;
	});
}

/** The field's default in the description, when it holds something (not '', '{}' or '[]'). */
export const defaultOf = (field: TextField): string | undefined => {
	const value = field.steps.at(-1)!.property.default;
	return typeof value === 'string' && !['', '{}', '[]'].includes(value.trim()) ? value : undefined;
};
