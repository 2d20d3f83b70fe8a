/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { EMBEDDINGS } from '../ai/fixtures';
import { apiRequests, useSandbox } from '../harness';
import { embeddingsRunner } from './runEmbeddings';

const { vector } = require('../../sandbox/ai/providers') as {
	vector: (model: string, text: string, dimensions: number) => number[];
};

const sandbox = useSandbox();
const embed = embeddingsRunner(sandbox);

describe('Fliplet Embeddings, used through n8n-core', () => {
	it('embeds documents in batches, in order, and a query on its own', async () => {
		const result = await embed(['a', 'b', 'c'], 'q', { batchSize: 2, dimensions: 4 });
		expect(result.error).toBeUndefined();
		const { vectors, queryVector } = result.json[0] as {
			vectors: number[][];
			queryVector: number[];
		};
		expect(vectors).toEqual(
			['a', 'b', 'c'].map((text) => vector('text-embedding-3-small', text, 4)),
		);
		expect(queryVector).toEqual(vector('text-embedding-3-small', 'q', 4));
		expect(apiRequests(sandbox(), EMBEDDINGS).map((request) => request.body)).toEqual([
			{
				model: 'text-embedding-3-small',
				input: ['a', 'b'],
				encoding_format: 'float',
				dimensions: 4,
			},
			{ model: 'text-embedding-3-small', input: ['c'], encoding_format: 'float', dimensions: 4 },
			{ model: 'text-embedding-3-small', input: ['q'], encoding_format: 'float', dimensions: 4 },
		]);
	});

	it('refuses an empty text before any request', async () => {
		const result = await embed(['a', ''], '');
		expect(result.error?.message).toBe('A text to embed is empty');
		expect(apiRequests(sandbox(), EMBEDDINGS)).toHaveLength(0);
	});

	it('refuses Dimensions for a model of fixed vector length before any request', async () => {
		const result = await embed(['a'], '', { dimensions: 4 }, 'text-embedding-ada-002');
		// n8n reports an error of a sub-node's set-up under the sub-node's name, with ours as description.
		expect(result.error?.message).toBe('Error in sub-node Fliplet Embeddings');
		expect(result.error?.description).toBe(
			'The model text-embedding-ada-002 does not take "Dimensions": its vectors have a fixed length',
		);
		expect(apiRequests(sandbox(), EMBEDDINGS)).toHaveLength(0);
	});

	it('never re-sends a batch that failed after reaching the platform', async () => {
		sandbox().injectFault({ mode: 'status-after', status: 500, path: 'ai/embeddings' });
		const result = await embed(['a'], '');
		expect(result.error?.description).toMatch(/never re-sent automatically/);
		expect(apiRequests(sandbox(), EMBEDDINGS)).toHaveLength(1);
	});

	it('refuses an answer without one vector per text, and says so', async () => {
		sandbox().injectFault({
			mode: 'status-before',
			status: 200,
			path: 'ai/embeddings',
			body: { data: [{ index: 0, embedding: [1] }] },
		});
		const result = await embed(['a', 'b'], '');
		expect(result.error?.message).toBe('Unexpected answer: not one vector per text (2)');
		expect(apiRequests(sandbox(), EMBEDDINGS)).toHaveLength(1);
	});
});
