import { isObject } from '../Fliplet/helpers/isObject';
import { UnsupportedInput } from './wire';

/**
 * A JSON schema as Gemini's Schema object (the OpenAPI 3.0 subset that function parameters and
 * `responseSchema` take). Gemini refuses any other field ("Unknown name … Cannot find field"), so
 * what it has no field for is left out: `additionalProperties`, `$schema`, `default`, formats it
 * does not know. Local `$ref`s are resolved, a type list with "null" becomes `nullable`, `oneOf`
 * becomes `anyOf` and `const` a one-value `enum`.
 */

export type GeminiSchema = { [key: string]: unknown };

const KEPT = [
	'title',
	'description',
	'nullable',
	'minItems',
	'maxItems',
	'minimum',
	'maximum',
	'minLength',
	'maxLength',
	'pattern',
	'minProperties',
	'maxProperties',
	'propertyOrdering',
];
const FORMATS = ['date-time', 'enum', 'int32', 'int64', 'float', 'double'];
/** Deeper than this, a schema refers to itself (Gemini takes no recursive schema). */
const MAX_DEPTH = 32;

type Definitions = Record<string, unknown>;

function resolve(ref: string, definitions: Definitions): unknown {
	const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
	const target = name === undefined ? undefined : definitions[decodeURIComponent(name)];
	if (target === undefined) {
		throw new UnsupportedInput(
			`A tool or output schema refers to "${ref}", which it does not define: Gemini takes only self-contained schemas.`,
		);
	}
	return target;
}

const isNullSchema = (schema: unknown) => isObject(schema) && schema.type === 'null';

function typeOf(schema: GeminiSchema, out: GeminiSchema, convertOne: (s: unknown) => GeminiSchema) {
	const types = [schema.type].flat().filter((type): type is string => typeof type === 'string');
	if (types.includes('null')) out.nullable = true;
	const others = types.filter((type) => type !== 'null');
	if (others.length === 1) out.type = others[0];
	else if (others.length > 1) out.anyOf = others.map((type) => convertOne({ type }));
	const alternatives = [schema.anyOf, schema.oneOf].flatMap((list) =>
		Array.isArray(list) ? list : [],
	);
	if (alternatives.some(isNullSchema)) out.nullable = true;
	const rest = alternatives.filter((alternative) => !isNullSchema(alternative));
	if (rest.length === 1) Object.assign(out, convertOne(rest[0]));
	else if (rest.length > 1) out.anyOf = rest.map(convertOne);
}

function convert(schema: unknown, definitions: Definitions, depth: number): GeminiSchema {
	if (depth > MAX_DEPTH) {
		throw new UnsupportedInput(
			`A tool or output schema nests deeper than ${MAX_DEPTH} levels or refers to itself: Gemini takes no recursive schemas.`,
		);
	}
	if (!isObject(schema)) return {};
	const next = (child: unknown) => convert(child, definitions, depth + 1);
	if (typeof schema.$ref === 'string') {
		const { $ref, ...siblings } = schema;
		return { ...next(resolve($ref, definitions)), ...next(siblings) };
	}
	const out: GeminiSchema = {};
	if (Array.isArray(schema.allOf)) for (const part of schema.allOf) Object.assign(out, next(part));
	typeOf(schema, out, next);
	for (const key of KEPT) if (schema[key] !== undefined) out[key] = schema[key];
	if (typeof schema.format === 'string' && FORMATS.includes(schema.format)) {
		out.format = schema.format;
	}
	const values = schema.const !== undefined ? [schema.const] : schema.enum;
	if (Array.isArray(values) && values.every((value) => typeof value === 'string')) {
		out.enum = values;
	}
	if (isObject(schema.properties)) {
		const properties = Object.fromEntries(
			Object.entries(schema.properties).map(([key, value]) => [key, next(value)]),
		);
		out.properties = properties;
		if (Array.isArray(schema.required)) {
			out.required = schema.required.filter((key) => typeof key === 'string' && key in properties);
		}
	}
	const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
	if (items !== undefined) out.items = next(items);
	return out;
}

export function toGeminiSchema(schema: unknown): GeminiSchema {
	const own = (key: string) => (isObject(schema) && isObject(schema[key]) ? schema[key] : {});
	const definitions = { ...own('definitions'), ...own('$defs') };
	return convert(schema, definitions, 0);
}

/** Whether a converted object schema declares no property (Gemini refuses such parameters). */
export const hasNoProperties = (schema: GeminiSchema) =>
	!isObject(schema.properties) || Object.keys(schema.properties).length === 0;
