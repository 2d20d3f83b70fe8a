import type { INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { FlipletChatModel } from '../../nodes/FlipletChatModel/FlipletChatModel.node';
import { recordGuardedRegex } from '../harness';

const description = new FlipletChatModel().description;
const options = description.properties.find((property) => property.name === 'options')!
	.options as INodeProperties[];

/**
 * The options the editor offers under Options for a model chosen from the list or typed in. The
 * display conditions' regular expressions run natively here: n8n's guarded engine gives each one
 * 250 ms, which a busy machine can exceed (a condition then reads as false).
 */
async function offered(model: string, mode = 'list', responseFormat?: string): Promise<string[]> {
	const values = {
		model: { __rl: true, mode, value: model },
		options: responseFormat ? { responseFormat } : {},
	};
	let shown: string[] = [];
	await recordGuardedRegex(async () => {
		shown = options
			.filter((option) =>
				NodeHelpers.displayParameterPath(values, option, 'options', null, description),
			)
			.map((option) => option.name);
	});
	return shown;
}

const SAMPLING = ['frequencyPenalty', 'presencePenalty', 'stop', 'temperature', 'topP'];
/** Options of OpenAI's models that Gemini does not take. */
const OPENAI_ONLY = ['frequencyPenalty', 'presencePenalty', 'reasoningEffort', 'seed'];

describe('Fliplet Chat Model: the models and the options each one takes', () => {
	it('lists the chat models the platform names in its code and docs, and takes any other id', async () => {
		const listed = await new FlipletChatModel().methods.listSearch.searchChatModels();
		expect(listed.results.map((result) => result.value)).toEqual([
			'gpt-4o-mini',
			'gpt-4o',
			'gpt-4.1',
			'gpt-5',
			'o3-mini',
			'gpt-4',
			'gpt-3.5-turbo',
			'gemini-2.5-flash',
		]);
		const modes = description.properties.find((property) => property.name === 'model')!.modes!;
		expect(modes.map((mode) => mode.name)).toEqual(['list', 'id']);
	});

	it.each(['gpt-5', 'o3-mini', 'o4-mini'])(
		'offers Reasoning Effort and no sampling settings for the reasoning model %s',
		async (model) => {
			const shown = await offered(model, 'id');
			expect(shown).toContain('reasoningEffort');
			for (const option of SAMPLING) expect(shown).not.toContain(option);
			expect(shown).toEqual(expect.arrayContaining(['maxTokens', 'responseFormat', 'seed']));
		},
	);

	it.each(['gpt-4o-mini', 'gpt-4.1', 'gpt-3.5-turbo'])(
		'offers the sampling settings and no Reasoning Effort for %s',
		async (model) => {
			const shown = await offered(model);
			expect(shown).not.toContain('reasoningEffort');
			expect(shown).toEqual(expect.arrayContaining([...SAMPLING, 'maxTokens', 'seed']));
		},
	);

	it.each([
		['gemini-2.5-flash', 'list'],
		['gemini-2.0-flash-lite', 'id'],
	])('offers the settings Gemini takes, and Top K, for %s', async (model, mode) => {
		const shown = await offered(model, mode);
		expect(shown).toEqual(
			expect.arrayContaining([
				'maxTokens',
				'responseFormat',
				'stop',
				'temperature',
				'topK',
				'topP',
			]),
		);
		for (const option of OPENAI_ONLY) expect(shown).not.toContain(option);
	});

	it("offers Top K for Gemini's models only", async () => {
		for (const model of ['gpt-4o-mini', 'gpt-5', 'o3-mini']) {
			expect(await offered(model)).not.toContain('topK');
		}
	});

	it('asks for the schema only when the response format is JSON Schema', async () => {
		expect(await offered('gpt-4o', 'list', 'jsonSchema')).toEqual(
			expect.arrayContaining(['jsonSchema', 'schemaName']),
		);
		expect(await offered('gpt-4o', 'list', 'json')).not.toContain('jsonSchema');
		expect(await offered('gpt-4o', 'list', 'text')).not.toContain('schemaName');
		// Gemini's responseSchema has no name.
		const forGemini = await offered('gemini-2.5-flash', 'list', 'jsonSchema');
		expect(forGemini).toContain('jsonSchema');
		expect(forGemini).not.toContain('schemaName');
	});
});
