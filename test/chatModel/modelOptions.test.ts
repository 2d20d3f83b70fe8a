import type { INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { FlipletChatModel } from '../../nodes/FlipletChatModel/FlipletChatModel.node';

const description = new FlipletChatModel().description;
const options = description.properties.find((property) => property.name === 'options')!
	.options as INodeProperties[];

/** The options the editor offers under Options for a model chosen from the list or typed in. */
function offered(model: string, mode = 'list'): string[] {
	const values = { model: { __rl: true, mode, value: model }, options: {} };
	return options
		.filter((option) =>
			NodeHelpers.displayParameterPath(values, option, 'options', null, description),
		)
		.map((option) => option.name);
}

const SAMPLING = ['frequencyPenalty', 'presencePenalty', 'stop', 'temperature', 'topP'];

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
		]);
		const modes = description.properties.find((property) => property.name === 'model')!.modes!;
		expect(modes.map((mode) => mode.name)).toEqual(['list', 'id']);
	});

	it.each(['gpt-5', 'o3-mini', 'o4-mini'])(
		'offers Reasoning Effort and no sampling settings for the reasoning model %s',
		(model) => {
			const shown = offered(model, 'id');
			expect(shown).toContain('reasoningEffort');
			for (const option of SAMPLING) expect(shown).not.toContain(option);
			expect(shown).toEqual(expect.arrayContaining(['maxTokens', 'responseFormat', 'seed']));
		},
	);

	it.each(['gpt-4o-mini', 'gpt-4.1', 'gpt-3.5-turbo'])(
		'offers the sampling settings and no Reasoning Effort for %s',
		(model) => {
			const shown = offered(model);
			expect(shown).not.toContain('reasoningEffort');
			expect(shown).toEqual(expect.arrayContaining([...SAMPLING, 'maxTokens', 'seed']));
		},
	);

	it('asks for the schema only when the response format is JSON Schema', () => {
		const model = { __rl: true, mode: 'list', value: 'gpt-4o' };
		const show = (responseFormat: string) =>
			options
				.filter((option) =>
					NodeHelpers.displayParameterPath(
						{ model, options: { responseFormat } },
						option,
						'options',
						null,
						description,
					),
				)
				.map((option) => option.name);
		expect(show('jsonSchema')).toEqual(expect.arrayContaining(['jsonSchema', 'schemaName']));
		expect(show('json')).not.toContain('jsonSchema');
		expect(show('text')).not.toContain('schemaName');
	});
});
