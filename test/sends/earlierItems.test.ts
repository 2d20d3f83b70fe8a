/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { faultNthRequest, useSandbox } from '../harness';
import {
	commitEachName,
	createTwoTokens,
	importEach,
	outcomesOf,
	publishTwoApps,
	REFUSED,
} from './operations';

const sandbox = useSandbox();

describe('A failure in a later item reports what the items before it did', () => {
	it('App → Publish of two apps, the second refused: the error says the first was published', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /\/publish$/ }, 2, REFUSED);
		const result = await publishTwoApps(sandbox());
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('Not now');
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(result.error?.description).toMatch(
			/Already published before this error: item 0 \(id 10\) — do not run them again\. Not published: item 1\.$/,
		);
		expect(outcomesOf(result.error)).toEqual([
			{ item: 0, outcome: 'published', output: [expect.objectContaining({ id: 10, version: 2 })] },
			{ item: 1, outcome: 'not published' },
		]);
	});

	it('App → Publish, the second answer lost: the first published, the second may have been', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /\/publish$/ }, 2, {
			mode: 'status-after',
			status: 502,
		});
		const result = await publishTwoApps(sandbox());
		expect(result.error?.description).toMatch(
			/The app of item 1 may already have been published: it was NOT sent again automatically/,
		);
		expect(outcomesOf(result.error).map((o: any) => o.outcome)).toEqual([
			'published',
			'may have been published',
		]);
	});

	it('Organization Token → Create of two, the second refused: the first secret is in the error data, never in its text', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /\/tokens$/ }, 2, REFUSED);
		const result = await createTwoTokens(sandbox());
		expect(result.status).toBe('error');
		const created = [...sandbox().state.tokens.values()].find((t: any) => t.name === 'First');
		expect(created).toBeDefined();
		const [first, second] = outcomesOf(result.error);
		expect(first).toEqual({
			item: 0,
			outcome: 'created',
			output: [{ organizationId: 1, id: created.id, name: 'First', token: created.token }],
		});
		expect(second).toEqual({ item: 1, outcome: 'not created' });
		expect(result.error?.description).toContain(
			`Already created before this error: item 0 (id ${created.id})`,
		);
		expect(result.error?.message).not.toContain(created.token);
		expect(result.error?.description).not.toContain(created.token);
	});

	it('with On Error → Continue each item keeps its own output: the created token with its secret, the refused one its error', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /\/tokens$/ }, 2, REFUSED);
		const result = await createTwoTokens(sandbox(), { continueOnFail: true });
		expect(result.status).toBe('success');
		expect(result.json[0]).toEqual(
			expect.objectContaining({ name: 'First', token: expect.stringMatching(/^eu--/) }),
		);
		expect(result.json[1].error).toBe('Not now');
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('Entry → Commit of two items, the second refused: the error says the first landed, with its new ids', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /\/commit$/ }, 2, REFUSED);
		const result = await commitEachName(sandbox(), ['Zed', 'Yan']);
		expect(result.status).toBe('error');
		const zed = sandbox().state.entries.find((entry: any) => entry.data.Name === 'Zed');
		expect(result.error?.description).toMatch(
			/Already committed before this error: item 0 — do not run them again\. Not committed: item 1\./,
		);
		expect(outcomesOf(result.error)).toEqual([
			{ item: 0, outcome: 'committed', output: [{ clientIds: [{ clientId: 'Zed', id: zed.id }] }] },
			{ item: 1, outcome: 'not committed' },
		]);
	});

	it('Entry → Commit returning the whole data set keeps only its size in the error', async () => {
		faultNthRequest(sandbox(), { method: 'POST', path: /\/commit$/ }, 2, REFUSED);
		const result = await commitEachName(sandbox(), ['Zed', 'Yan'], { returnEntries: true });
		const stored = sandbox().state.entries.filter((entry: any) => entry.dataSourceId === 100);
		expect(outcomesOf(result.error)[0].output).toEqual([{ entriesReturned: stored.length }]);
	});

	it('Entry → Import into two data sources, the second refused: the error says the first landed', async () => {
		// Data source 103's security rules refuse inserts from the app token.
		const result = await importEach(sandbox(), [
			{ ds: 100, Name: 'Xia' },
			{ ds: 100, Name: 'Wim' },
			{ ds: 103, Secret: 's' },
		]);
		expect(result.status).toBe('error');
		expect(result.error?.description).toMatch(
			/Already imported before this error: items 0–1 — do not run them again\. Not imported: item 2\./,
		);
		expect(outcomesOf(result.error)).toEqual([
			{ item: 0, outcome: 'imported', output: [{ imported: 2, mode: 'append' }] },
			{ item: 1, outcome: 'imported' },
			{ item: 2, outcome: 'not imported' },
		]);
	});
});
