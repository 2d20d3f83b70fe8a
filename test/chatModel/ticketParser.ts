/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */

// LangChain's structured output parser, as n8n's Structured Output Parser uses it (the SDK's copy).
const { StructuredOutputParser } = require(
	require.resolve('@langchain/core/output_parsers', {
		paths: [require.resolve('@n8n/ai-utilities')],
	}),
);
const { z } = require('zod');

/**
 * An output parser for a ticket's title and priority, and a prompt that carries its format
 * instructions, as n8n's Basic LLM Chain sends them with a Structured Output Parser.
 */
export function ticketParser(): {
	parser: { parse(text: unknown): Promise<unknown> };
	prompt: string;
} {
	const parser = StructuredOutputParser.fromZodSchema(
		z.object({ output: z.object({ title: z.string(), priority: z.number() }) }),
	);
	return {
		parser,
		prompt: `Give a title for: the printer is jammed\n${parser.getFormatInstructions()}`,
	};
}

/** What the parser reads from the sandbox's answer to the prompt. */
export const PARSED_TICKET = {
	output: { title: 'Echo: Give a title for: the printer is jammed', priority: 0 },
};

/** The JSON schema the parser's format instructions carry, as the Chat Model sends it. */
export const TICKET_SCHEMA = {
	type: 'object',
	properties: {
		output: {
			type: 'object',
			properties: { title: { type: 'string' }, priority: { type: 'number' } },
			required: ['title', 'priority'],
			additionalProperties: false,
		},
	},
	required: ['output'],
	additionalProperties: false,
};

/** The same schema as Gemini gets it: its Schema object has no `additionalProperties`. */
export const TICKET_GEMINI_SCHEMA = JSON.parse(
	JSON.stringify(TICKET_SCHEMA, (key, value) =>
		key === 'additionalProperties' ? undefined : value,
	),
);
