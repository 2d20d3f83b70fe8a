import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { triesOfThisRun } from '../../nodes/Fliplet/helpers/tryMemory';

/** The one thing the memory reads of its context: the execute data of the node run. */
const contextOf = (executeData: object | undefined) =>
	({ getExecuteData: () => executeData }) as unknown as IExecuteFunctions;

const itemsOf = (...names: string[]): INodeExecutionData[] =>
	names.map((name) => ({ json: { name } }));

describe('the memory of a node run across Retry On Fail tries', () => {
	it('a retry (same execute data, same input items) finds what the earlier try recorded', () => {
		const run = contextOf({});
		const items = itemsOf('a', 'b');
		triesOfThisRun(run, items).set(0, { outcome: 'done', output: [{ json: { sent: true } }] });
		expect(triesOfThisRun(run, items).get(0)).toEqual({
			outcome: 'done',
			output: [{ json: { sent: true } }],
		});
	});

	it('another run of the node (a loop, another execution) starts empty, even on the same items', () => {
		const items = itemsOf('a');
		triesOfThisRun(contextOf({}), items).set(0, { outcome: 'unknown', message: 'lost' });
		expect(triesOfThisRun(contextOf({}), items).size).toBe(0);
	});

	it('calls as an AI tool share the agent execute data but not their input: each starts empty, and they never mix', () => {
		const agent = contextOf({});
		const first = itemsOf('to ann');
		const second = itemsOf('to bob');
		triesOfThisRun(agent, first).set(0, { outcome: 'unknown', message: 'lost' });
		expect(triesOfThisRun(agent, second).size).toBe(0);
		triesOfThisRun(agent, second).set(0, { outcome: 'done', output: [] });
		expect(triesOfThisRun(agent, first).get(0)?.outcome).toBe('unknown');
	});

	it('the same first item with other items after it is another input', () => {
		const run = contextOf({});
		const items = itemsOf('a', 'b');
		triesOfThisRun(run, items).set(1, { outcome: 'done', output: [] });
		expect(triesOfThisRun(run, [items[0]]).size).toBe(0);
	});

	it('remembers nothing without execute data or items', () => {
		triesOfThisRun(contextOf(undefined), itemsOf('a')).set(0, { outcome: 'done', output: [] });
		expect(triesOfThisRun(contextOf(undefined), itemsOf('a')).size).toBe(0);
		expect(triesOfThisRun(contextOf({}), []).size).toBe(0);
	});
});
