'use strict';

/**
 * Deterministic JSON answers to a JSON Schema, given as a `json_schema` response format or a
 * function's parameters, or carried by the prompt in a ```json fence (what n8n's structured output
 * parser adds to the prompt, in a user or a system message): an
 * instance of that schema, whose strings echo the prompt's first line, numbers are 0, booleans
 * false and arrays hold one item.
 */

function schemaIn(text) {
	const fence = /```json\s*\n([\s\S]*?)\n\s*```/.exec(text);
	if (!fence) return undefined;
	try {
		const schema = JSON.parse(fence[1]);
		return schema && typeof schema === 'object' && schema.type ? schema : undefined;
	} catch {
		return undefined;
	}
}

function instance(schema, echoText, depth = 0) {
	if (!schema || typeof schema !== 'object' || depth > 10) return null;
	const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
	if (type === 'object') {
		return Object.fromEntries(
			Object.entries(schema.properties ?? {}).map(([key, value]) => [
				key,
				instance(value, echoText, depth + 1),
			]),
		);
	}
	if (type === 'array') return [instance(schema.items, echoText, depth + 1)];
	if (type === 'number' || type === 'integer') return 0;
	if (type === 'boolean') return false;
	if (type === 'string') return Array.isArray(schema.enum) ? schema.enum[0] : `Echo: ${echoText}`;
	return null;
}

/** The JSON text of an instance of `schema` whose strings echo the prompt's first line. */
function instanceAnswer(schema, text) {
	const firstLine = text.split('\n')[0].trim();
	return JSON.stringify(instance(schema, firstLine));
}

/**
 * The JSON text answering a prompt with a schema fence (in `text`, else in one of `others`, such
 * as the system messages), or undefined without one. Strings echo the first line of `text`.
 */
function schemaAnswer(text, others = []) {
	const schema = [text, ...others].map(schemaIn).find(Boolean);
	return schema ? instanceAnswer(schema, text) : undefined;
}

module.exports = { schemaAnswer, instanceAnswer };
