/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, TOKENS, useSandbox, type TestItem } from '../harness';
import { EMBEDDINGS } from './fixtures';
import { runAi } from './runAi';

// The sandbox's deterministic fake vectors, to compare outputs with what the provider returned.
const { vector } = require('../../sandbox/ai/providers') as {
	vector: (model: string, text: string, dimensions: number) => number[];
};

const sandbox = useSandbox();

function embed(parameters: Record<string, unknown>, input?: TestItem[], continueOnFail = false) {
	return runAi(sandbox(), 'createEmbeddings', parameters, { input, continueOnFail });
}

describe('AI → Create Embeddings', () => {
	it('embeds one text per item with float vectors and dimensions', async () => {
		const result = await embed({ text: '={{ $json.title }}', options: { dimensions: 4 } }, [
			{ json: { title: 'Safety checklist' } },
			{ json: { title: 'Shift handover' } },
		]);
		expect(result.error).toBeUndefined();
		const requests = apiRequests(sandbox(), EMBEDDINGS);
		expect(requests.map((request) => request.body)).toEqual([
			{
				model: 'text-embedding-3-small',
				input: 'Safety checklist',
				encoding_format: 'float',
				dimensions: 4,
			},
			{
				model: 'text-embedding-3-small',
				input: 'Shift handover',
				encoding_format: 'float',
				dimensions: 4,
			},
		]);
		expect(requests[0].path).toBe('/v1/apps/11/ai/embeddings');
		expect(result.json).toEqual([
			{
				text: 'Safety checklist',
				embedding: vector('text-embedding-3-small', 'Safety checklist', 4),
				index: 0,
				model: 'text-embedding-3-small',
			},
			{
				text: 'Shift handover',
				embedding: vector('text-embedding-3-small', 'Shift handover', 4),
				index: 0,
				model: 'text-embedding-3-small',
			},
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('embeds a list from an expression in one request: one output per text, in order', async () => {
		const result = await embed({ text: '={{ $json.lines }}' }, [
			{ json: { lines: ['alpha', 'beta', 'gamma'] } },
		]);
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), EMBEDDINGS).map((request) => request.body.input)).toEqual([
			['alpha', 'beta', 'gamma'],
		]);
		expect(result.json.map((json) => [json.text, json.index])).toEqual([
			['alpha', 0],
			['beta', 1],
			['gamma', 2],
		]);
		expect(result.json[2].embedding).toEqual(vector('text-embedding-3-small', 'gamma', 8));
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(
			true,
		);
	});

	it('batches a field of every item into one request per batch and pairs each vector back', async () => {
		const input = ['one', 'two', 'three', 'four', 'five'].map((name, id) => ({
			json: { id, doc: { body: name } },
		}));
		const result = await embed(
			{
				inputSource: 'field',
				field: 'doc.body',
				batchSize: 2,
				model: 'text-embedding-3-large',
				options: { outputField: 'vector' },
			},
			input,
		);
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), EMBEDDINGS).map((request) => request.body.input)).toEqual([
			['one', 'two'],
			['three', 'four'],
			'five',
		]);
		expect(result.json.map((json) => json.id)).toEqual([0, 1, 2, 3, 4]);
		expect(result.json[3]).toEqual({
			id: 3,
			doc: { body: 'four' },
			vector: vector('text-embedding-3-large', 'four', 8),
			model: 'text-embedding-3-large',
		});
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
	});

	it('returns base64 strings when asked', async () => {
		const result = await embed({ text: 'hello', options: { encoding: 'base64' } });
		expect(apiRequests(sandbox(), EMBEDDINGS)[0].body.encoding_format).toBe('base64');
		const decoded = new Float32Array(
			new Uint8Array(Buffer.from(result.json[0].embedding as string, 'base64')).buffer,
		);
		expect([...decoded]).toEqual(
			vector('text-embedding-3-small', 'hello', 8).map((value) => Math.fround(value)),
		);
	});

	it('an item without text fails alone (continue on fail) and is not sent', async () => {
		const result = await embed(
			{ inputSource: 'field', field: 'body' },
			[{ json: { body: 'kept' } }, { json: { body: '' } }, { json: { body: 'also kept' } }],
			true,
		);
		expect(apiRequests(sandbox(), EMBEDDINGS).map((request) => request.body.input)).toEqual([
			['kept', 'also kept'],
		]);
		expect(result.json.map((json) => json.body ?? json.error)).toEqual([
			'kept',
			'The field "body" of item 1 is not a non-empty text',
			'also kept',
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	it('a refused batch fails every item of that batch, tagged with its first item without continue on fail', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 400,
			body: { message: 'The provider refused the input' },
			path: '/ai/embeddings$',
		});
		const result = await embed({ inputSource: 'field', field: 'body' }, [
			{ json: { body: 'a' } },
			{ json: { body: 'b' } },
		]);
		expect(result.error?.httpCode).toBe('400');
		expect(result.error?.message).toMatch(/The provider refused the input/);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox(), EMBEDDINGS)).toHaveLength(1);
	});

	it.each(['text', 'field'])(
		'refuses Dimensions for a model with fixed-length vectors before sending (%s input)',
		async (inputSource) => {
			const result = await embed(
				{
					inputSource,
					text: '={{ $json.body }}',
					field: 'body',
					model: 'text-embedding-ada-002',
					options: { dimensions: 3 },
				},
				[{ json: { body: 'a' } }, { json: { body: 'b' } }],
			);
			expect(result.error?.message).toBe(
				'The model text-embedding-ada-002 does not take "Dimensions": its vectors have a fixed length',
			);
			expect(result.error?.description).toMatch(/^Remove the Dimensions option/);
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(apiRequests(sandbox(), EMBEDDINGS)).toHaveLength(0);
		},
	);

	it('sends no dimensions when the option is not set, so a fixed-length model works', async () => {
		const result = await embed({ text: 'hello', model: 'text-embedding-ada-002' });
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), EMBEDDINGS)[0].body).toEqual({
			model: 'text-embedding-ada-002',
			input: 'hello',
			encoding_format: 'float',
		});
	});

	it('in batch mode, items of different apps go in different requests, each under its own app', async () => {
		const input = [
			{ app: '11', body: 'one' },
			{ app: '21', body: 'two' },
			{ app: '11', body: 'three' },
			{ app: '21', body: 'four' },
			{ app: '11', body: 'five' },
		].map((json) => ({ json }));
		const result = await runAi(
			sandbox(),
			'createEmbeddings',
			{
				app: { __rl: true, mode: 'id', value: '={{ $json.app }}' },
				inputSource: 'field',
				field: 'body',
				batchSize: 2,
			},
			{ input, token: TOKENS.org },
		);
		expect(result.error).toBeUndefined();
		expect(
			apiRequests(sandbox(), EMBEDDINGS).map((request) => [request.path, request.body.input]),
		).toEqual([
			['/v1/apps/11/ai/embeddings', ['one', 'three']],
			['/v1/apps/11/ai/embeddings', 'five'],
			['/v1/apps/21/ai/embeddings', ['two', 'four']],
		]);
		expect(result.json.map((json) => [json.app, json.body, json.embedding])).toEqual(
			input.map(({ json }) => [
				json.app,
				json.body,
				vector('text-embedding-3-small', json.body, 8),
			]),
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
	});
});
