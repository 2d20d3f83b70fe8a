/**
 * How a chat-completions call asks for an answer that follows a JSON schema, model by model.
 *
 * OpenAI takes `response_format: {type: 'json_schema'}` only on its newer models: gpt-4o-mini,
 * gpt-4o from gpt-4o-2024-08-06 on, the gpt-4.1 and later families, and the o-series from o1
 * (not o1-mini or o1-preview). Older models refuse it with a 400 ("Invalid parameter:
 * 'response_format' of type 'json_schema' is not supported with this model"), and gpt-4 refuses
 * JSON mode (`json_object`) too. Function calling with `strict: true` follows the schema on every
 * model that calls functions, gpt-4 and gpt-3.5-turbo included (OpenAI, "Introducing Structured
 * Outputs in the API"). The vendor's AI widget pairs json_schema with gpt-4.1 and notes
 * gpt-4o-2024-08-06 "for structured outputs" (`Fliplet/fliplet-widget-ai-feature:
 * js/interface.js`); its app templates pair JSON mode with gpt-3.5-turbo-1106 and
 * gpt-4-0125-preview (`Fliplet/qa-automation-solutions: POM.json`).
 *
 * The choice is LangChain's (`withStructuredOutput` of @langchain/openai): json_schema where the
 * model takes it, function calling (the schema as a forced tool's parameters) where it does not
 * (LangChain's test: ids starting `gpt-3` or `gpt-4-`, and `gpt-4`). A call that already carries
 * an agent's tools cannot force one tool: it asks in JSON mode where the model takes it, else in
 * the prompt alone. Any other id (a snapshot or a model the package does not know) is tried with
 * json_schema, and sent once more the other way if the platform refuses the format.
 */

export type OutputRoute = 'jsonSchema' | 'functionCalling' | 'jsonMode' | 'prompt';

/** What a model takes; undefined where the package does not know the model (an id typed By ID). */
export interface OutputAbilities {
	jsonSchema: boolean | undefined;
	jsonMode: boolean | undefined;
	functionCalling: boolean;
}

/** No response format and no function calling. */
const NO_FORMAT_NO_TOOLS = /^o1-(mini|preview)(-|$)/;
/** Function calling, but no JSON mode: the first gpt-4 and gpt-3.5-turbo snapshots. */
const NO_JSON_MODE = /^(gpt-4(-0314|-0613|-32k(-\d{4})?)?|gpt-3\.5-turbo-(0301|0613|16k(-0613)?))$/;
/** JSON mode and function calling, but no json_schema: the rest of LangChain's `gpt-3`, `gpt-4-`. */
const JSON_MODE_ONLY = /^(gpt-3\.5-turbo(-1106|-0125)?|gpt-4-(turbo[\w-]*|\d{4}-preview))$/;
/** LangChain's models without json_schema: gpt-3…, gpt-4-…, gpt-4. */
const BEFORE_JSON_SCHEMA = /^(gpt-3|gpt-4-|gpt-4$)/;
/**
 * json_schema, JSON mode and function calling, as OpenAI documents them: gpt-4o (the alias) and
 * its snapshots from 2024-08-06, gpt-4o-mini, gpt-4.1…, gpt-5 and later, o1 and o3 on.
 */
const JSON_SCHEMA =
	/^(gpt-4o(-2024-08-06|-2024-11-20)?|gpt-4o-mini(-\d{4}-\d{2}-\d{2})?|gpt-4\.\d+(-[\w.-]+)?|gpt-([5-9]|\d{2,})([.-][\w.-]*)?|o1(-\d{4}-\d{2}-\d{2})?|o[3-9](-[\w.-]+)?)$/;

export function outputAbilities(model: string): OutputAbilities {
	const id = model.trim().toLowerCase();
	if (NO_FORMAT_NO_TOOLS.test(id)) {
		return { jsonSchema: false, jsonMode: false, functionCalling: false };
	}
	if (NO_JSON_MODE.test(id)) return { jsonSchema: false, jsonMode: false, functionCalling: true };
	if (JSON_MODE_ONLY.test(id)) return { jsonSchema: false, jsonMode: true, functionCalling: true };
	if (BEFORE_JSON_SCHEMA.test(id)) {
		return { jsonSchema: false, jsonMode: undefined, functionCalling: true };
	}
	if (JSON_SCHEMA.test(id)) return { jsonSchema: true, jsonMode: true, functionCalling: true };
	return { jsonSchema: undefined, jsonMode: undefined, functionCalling: true };
}

/**
 * The route a call takes first, and the one it takes once more if the platform refuses the first
 * one's response format (only json_schema is tried on a model that may refuse it).
 */
export interface OutputPlan {
	first: OutputRoute;
	fallback?: OutputRoute;
}

export function outputPlan(model: string, toolsBound: boolean): OutputPlan {
	const can = outputAbilities(model);
	const fallback: OutputRoute =
		!toolsBound && can.functionCalling ? 'functionCalling' : can.jsonMode ? 'jsonMode' : 'prompt';
	return can.jsonSchema === false ? { first: fallback } : { first: 'jsonSchema', fallback };
}

/** How the run data names each route. */
export const ROUTE_NAMES: Record<OutputRoute, string> = {
	jsonSchema: 'json_schema response format',
	functionCalling: "function calling (the schema as a forced tool's parameters)",
	jsonMode: 'JSON mode (json_object) with the schema in the prompt',
	prompt: 'the schema in the prompt alone',
};
