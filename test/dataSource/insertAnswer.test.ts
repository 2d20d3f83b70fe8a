import type { IDataObject } from 'n8n-workflow';
import { apiRequests, runNode, sandboxCredential, useSandbox } from '../harness';

const sandbox = useSandbox();
const staff = { __rl: true, mode: 'id', value: '100' };
const stored = () => sandbox().state.entries.filter((e: IDataObject) => e.dataSourceId === 100);

function insert() {
	return runNode({
		parameters: {
			resource: 'entry',
			operation: 'insert',
			dataSource: staff,
			columns: { mappingMode: 'defineBelow', value: { Name: 'Fay Lee' } },
		},
		credentials: sandboxCredential(sandbox()),
	});
}

/** The insert runs (the row is written), then the answer is replaced by `body`. */
function answerWith(body: unknown) {
	sandbox().injectFault({ mode: 'status-after', status: 200, method: 'PUT', path: '/data$', body });
}

describe('Entry → Insert: the answer', () => {
	it("accepts a list holding only the new entry (as Fliplet's own QA code does), once", async () => {
		const before = stored().length;
		const entry = { id: 4242, dataSourceId: 100, data: { Name: 'Fay Lee' } };
		answerWith([entry]);
		const result = await insert();
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([entry]);
		expect(apiRequests(sandbox(), /\/data$/)).toHaveLength(1);
		expect(stored()).toHaveLength(before + 1);
	});

	it('refuses any other list, saying the entry was most likely written and not to run it again', async () => {
		const before = stored().length;
		answerWith([{ id: 1 }, { id: 2 }]);
		const result = await insert();
		expect(result.error?.message).toBe('Unexpected response from Fliplet: no entry in it');
		expect(result.error?.description).toMatch(/the entry was most likely written/);
		expect(result.error?.description).toMatch(/a second run adds a second copy/);
		expect(apiRequests(sandbox(), /\/data$/)).toHaveLength(1);
		expect(stored()).toHaveLength(before + 1);
	});
});
