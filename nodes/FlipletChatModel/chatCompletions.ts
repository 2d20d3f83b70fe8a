import type { IDataObject } from 'n8n-workflow';

import { compact } from '../Fliplet/helpers/aiText';
import { isObject } from '../Fliplet/helpers/isObject';
import type { Attempt, CallInput, WireFormat } from './format';
import { outputAbilities, outputPlan, ROUTE_NAMES, type OutputRoute } from './outputRoutes';
import {
	jsonSchemaFormat,
	requestedOutput,
	schemaFunction,
	schemaInstruction,
	type JsonSchema,
} from './structuredOutput';
import { fromWireAnswer, toWireMessages, toWireTools, UnsupportedInput } from './wire';

/** The request without any structured output: messages, the agent's tools and the settings. */
function plainBody({
	model,
	messages,
	tools,
	settings,
	stop,
	streaming,
	toJsonSchema,
}: CallInput): IDataObject {
	const declared: IDataObject = tools.length
		? {
				tools: toWireTools(tools, toJsonSchema),
				// n8n's stream adapter gives every tool-call chunk the same index.
				parallel_tool_calls: streaming ? false : undefined,
			}
		: {};
	return compact({
		model,
		messages: toWireMessages(messages) as unknown as IDataObject[],
		...declared,
		temperature: settings.temperature,
		max_completion_tokens: settings.maxTokens,
		reasoning_effort: settings.reasoningEffort || undefined,
		top_p: settings.topP,
		presence_penalty: settings.presencePenalty,
		frequency_penalty: settings.frequencyPenalty,
		seed: settings.seed,
		stop,
	});
}

/**
 * The answer to the forced call of the schema's function read as a json_schema answer: the call's
 * arguments are the message's text, and no tool call is left for an agent to run.
 */
export function forcedCallAsText(response: IDataObject, name: string): IDataObject {
	const choices = Array.isArray(response.choices) ? response.choices : [];
	const [choice] = choices;
	if (!isObject(choice) || !isObject(choice.message)) return response;
	const calls = Array.isArray(choice.message.tool_calls) ? choice.message.tool_calls : [];
	const forced = calls.find(
		(call) => isObject(call) && isObject(call.function) && call.function.name === name,
	) as IDataObject | undefined;
	if (!forced) return response;
	const args = (forced.function as IDataObject).arguments;
	const others = calls.filter((call) => call !== forced);
	const message = {
		...choice.message,
		content: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
		tool_calls: others.length ? others : undefined,
	};
	const finish = choice.finish_reason === 'tool_calls' ? 'stop' : choice.finish_reason;
	return {
		...response,
		choices: [{ ...choice, message, finish_reason: finish }, ...choices.slice(1)],
	};
}

/** The messages with the schema as a first system message, when the prompt does not carry it. */
function withSchemaInPrompt(body: IDataObject, schema: JsonSchema, inPrompt: boolean) {
	if (inPrompt) return body.messages;
	return [
		{ role: 'system', content: schemaInstruction(schema) },
		...(body.messages as IDataObject[]),
	];
}

function schemaAttempt(
	route: OutputRoute,
	plain: IDataObject,
	output: { schema: JsonSchema; name: string; inPrompt: boolean },
): Attempt {
	const { schema, name, inPrompt } = output;
	const structuredOutput = ROUTE_NAMES[route];
	if (route === 'jsonSchema') {
		return {
			body: { ...plain, response_format: jsonSchemaFormat(name, schema) },
			read: fromWireAnswer,
			structuredOutput,
			refusable: 'json_schema',
		};
	}
	if (route === 'functionCalling') {
		return {
			body: {
				...plain,
				tools: [schemaFunction(name, schema)],
				tool_choice: { type: 'function', function: { name } },
			},
			read: (response) => fromWireAnswer(forcedCallAsText(response, name)),
			structuredOutput,
		};
	}
	const messages = withSchemaInPrompt(plain, schema, inPrompt);
	const format = route === 'jsonMode' ? { response_format: { type: 'json_object' } } : {};
	return { body: { ...plain, messages, ...format }, read: fromWireAnswer, structuredOutput };
}

/** The chat-completions format, in which the platform runs OpenAI's models. */
export const chatCompletions: WireFormat = {
	answerName: 'chat-completions message',

	requests(input) {
		const plain = plainBody(input);
		const output = requestedOutput(input.settings.structuredOutput, input.messages);
		if (!output) return { first: { body: plain, read: fromWireAnswer } };
		if ('json' in output) {
			if (outputAbilities(input.model).jsonMode === false) {
				throw new UnsupportedInput(
					`The model "${input.model}" takes no JSON Object response format`,
					'OpenAI refuses JSON mode on this model. Set Response Format to JSON Schema (this model gets it through function calling) or Text, or pick a model that takes JSON mode, such as gpt-4o-mini or gpt-3.5-turbo.',
				);
			}
			return {
				first: {
					body: { ...plain, response_format: { type: 'json_object' } },
					read: fromWireAnswer,
				},
			};
		}
		const plan = outputPlan(input.model, input.tools.length > 0);
		return {
			first: schemaAttempt(plan.first, plain, output),
			fallback: plan.fallback && schemaAttempt(plan.fallback, plain, output),
		};
	},
};
