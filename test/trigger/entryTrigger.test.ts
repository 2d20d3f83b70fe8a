/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { apiRequests, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { emittedIds, runPoll } from '../harness/poll';
import { LOOK_BACK_MS } from '../../nodes/FlipletTrigger/lookBack';
import { DEPARTMENTS, entryTriggerKit } from './entryTriggerKit';

// The sandbox is plain JavaScript so scripts can run it without a build.
const store = require('../../sandbox/dataSources/store');

const sandbox = useSandbox();
const { poll, insert, update } = entryTriggerKit(sandbox);

const ids = emittedIds;

describe('Fliplet Trigger → data source entries', () => {
	it('New Entry: nothing old on activation, then each new entry once, even with shared timestamps', async () => {
		let clock = Date.parse('2026-04-01T08:00:00.000Z');
		sandbox().state.now = () => clock;
		insert('Old');
		const start = await poll('newEntry', undefined);
		expect(start.error).toBeUndefined();
		expect(start.items).toBeNull();
		const [request] = apiRequests(sandbox(), /\/data\/query$/);
		expect(request.method).toBe('POST');
		expect(request.path).toBe(`/v1/data-sources/${DEPARTMENTS}/data/query`);
		expect(request.body).toEqual({
			type: 'select',
			order: [
				['createdAt', 'DESC'],
				['id', 'DESC'],
			],
			limit: 1,
			includePagination: true,
		});

		const sameTime = [insert('A'), insert('B')];
		const one = await poll('newEntry', start.staticData);
		expect(ids(one.items)).toEqual(sameTime.map((e) => e.id));
		expect(apiRequests(sandbox(), /\/data\/query$/).at(-1)!.body).toMatchObject({
			type: 'select',
			order: [
				['createdAt', 'ASC'],
				['id', 'ASC'],
			],
		});
		const third = insert('C');
		clock += 1000;
		update(sameTime[0], 'A2');
		const two = await poll('newEntry', one.staticData);
		expect(ids(two.items)).toEqual([third.id]);
		expect((await poll('newEntry', two.staticData)).items).toBeNull();
	});

	it('New or Updated Entry: delivers an update once, with the latest data', async () => {
		let clock = Date.parse('2026-04-02T08:00:00.000Z');
		sandbox().state.now = () => clock;
		const existing = insert('Sales');
		const start = await poll('newOrUpdatedEntry', undefined);
		expect(start.items).toBeNull();
		clock += 1000;
		const changed = update(existing, 'Sales & Marketing');
		const added = insert('Legal');
		const one = await poll('newOrUpdatedEntry', start.staticData);
		expect(one.items?.map((item) => [item.json.id, (item.json.data as any).Name])).toEqual([
			[changed.id, 'Sales & Marketing'],
			[added.id, 'Legal'],
		]);
		expect((await poll('newOrUpdatedEntry', one.staticData)).items).toBeNull();
	});

	it('pages through more than a page of new entries without loss, bounded per poll', async () => {
		const start = await poll('newEntry', undefined);
		let clock = Date.parse('2026-04-03T08:00:00.000Z');
		sandbox().state.now = () => clock;
		const added = Array.from({ length: 1100 }, (_, n) => {
			if (n % 7 === 0) clock += 1;
			return insert(`D${n}`);
		});
		const one = await poll('newEntry', start.staticData, { maxEventsPerPoll: 800 });
		const two = await poll('newEntry', one.staticData, { maxEventsPerPoll: 800 });
		expect(ids(one.items)).toHaveLength(800);
		expect([...ids(one.items), ...ids(two.items)]).toEqual(added.map((e) => e.id));
	});

	it('starts reading where the last poll stopped, and further back when deletions moved entries', async () => {
		let clock = Date.parse('2026-04-04T08:00:00.000Z');
		// Entries further apart than the look-back: a poll reads again only the newest it delivered.
		sandbox().state.now = () => (clock += LOOK_BACK_MS + 10);
		const old = Array.from({ length: 600 }, (_, n) => insert(`Old ${n}`));
		const start = await poll('newEntry', undefined);
		const firstBatch = [insert('N1'), insert('N2'), insert('N3')];
		const one = await poll('newEntry', start.staticData);
		expect(ids(one.items)).toEqual(firstBatch.map((e) => e.id));

		const offsets = () => apiRequests(sandbox(), /\/data\/query$/).map((r) => r.body.offset);
		const before = offsets().length;
		const secondBatch = [insert('N4'), insert('N5')];
		const two = await poll('newEntry', one.staticData);
		expect(ids(two.items)).toEqual(secondBatch.map((e) => e.id));
		const position = (entry: any) =>
			store.entriesOf(sandbox().state, DEPARTMENTS).findIndex((e: any) => e.id === entry.id);
		expect(offsets().slice(before)).toEqual([position(firstBatch[2]) - 1]);
		const hint = position(secondBatch[1]) - 1;

		store.removeEntries(
			sandbox().state,
			DEPARTMENTS,
			old.slice(0, 100).map((e: any) => e.id),
		);
		const after = offsets().length;
		const late = insert('N6');
		const three = await poll('newEntry', two.staticData);
		expect(ids(three.items)).toEqual([late.id]);
		expect(store.entriesOf(sandbox().state, DEPARTMENTS).length).toBeLessThan(hint);
		// 100 entries before the hint went: the read steps back 16, 32, 64, then 128 entries.
		const read = offsets().slice(after);
		expect(read[0]).toBeGreaterThanOrEqual(hint);
		expect(read.slice(1).map((offset, index) => read[index] - offset)).toEqual([16, 16, 32, 64]);
	});

	it('an idle data source is not read from its first entry on every poll', async () => {
		let clock = Date.parse('2026-04-07T08:00:00.000Z');
		sandbox().state.now = () => (clock += 10);
		Array.from({ length: 600 }, (_, n) => insert(`Idle ${n}`));
		const last = store.entriesOf(sandbox().state, DEPARTMENTS).length - 1;
		const offsets = () => apiRequests(sandbox(), /\/data\/query$/).map((r) => r.body.offset);

		// Activation finds the entries sharing the newest time from the total, not by reading all.
		const start = await poll('newEntry', undefined);
		expect(offsets()).toEqual([undefined, last - 1]);
		let before = offsets().length;
		const idle = await poll('newEntry', start.staticData);
		expect(idle.items).toBeNull();
		expect(offsets().slice(before)).toEqual([last - 1]);

		// A cursor from Start From has no position yet: one full read, then the same short one.
		const fromDate = await poll('newEntry', undefined, { startFrom: '2026-04-07T09:00:00.000Z' });
		expect(fromDate.items).toBeNull();
		before = offsets().length;
		expect((await poll('newEntry', fromDate.staticData)).items).toBeNull();
		expect(offsets().slice(before)).toEqual([last]);

		const fresh = insert('Fresh');
		const one = await poll('newEntry', idle.staticData);
		expect(ids(one.items)).toEqual([fresh.id]);
	});

	it('a poll out of time among old entries leaves the next one where it stopped', async () => {
		let clock = Date.parse('2026-04-09T08:00:00.000Z');
		sandbox().state.now = () => (clock += 10);
		Array.from({ length: 1200 }, (_, n) => insert(`Old ${n}`));
		const fromDate = { startFrom: '2026-04-09T09:00:00.000Z' };
		// Each poll reads at least one page, even with no time left.
		const firstOffsets: number[] = [];
		let staticData: Record<string, any> | undefined;
		for (let n = 0; n < 3; n++) {
			const before = apiRequests(sandbox(), /\/data\/query$/).length;
			const result = await poll('newEntry', staticData, fromDate, 0);
			expect(result.items).toBeNull();
			firstOffsets.push(apiRequests(sandbox(), /\/data\/query$/)[before].body.offset);
			staticData = result.staticData;
		}
		expect(firstOffsets).toEqual([0, 500, 1000]);
		clock = Date.parse('2026-04-09T09:00:01.000Z');
		const fresh = insert('Fresh');
		expect(ids((await poll('newEntry', staticData, fromDate, 0)).items)).toEqual([fresh.id]);
	});

	it('activation remembers every entry sharing the newest time, even more than a page overlap', async () => {
		let clock = Date.parse('2026-04-08T08:00:00.000Z');
		sandbox().state.now = () => clock;
		Array.from({ length: 560 }, (_, n) => {
			clock += 1;
			return insert(`Before ${n}`);
		});
		clock += 1;
		const tied = Array.from({ length: 40 }, (_, n) => insert(`Tied ${n}`));
		const start = await poll('newEntry', undefined);
		expect((start.staticData['node:Fliplet Trigger'] as any).cursor.delivered).toEqual(
			expect.arrayContaining(tied.map((e) => `${e.id}@${Date.parse(e.createdAt)}`)),
		);
		clock += 1;
		const fresh = insert('After');
		expect(ids((await poll('newEntry', start.staticData)).items)).toEqual([fresh.id]);
	});

	it('"Fetch Test Event" returns the newest entry and stores no cursor', async () => {
		sandbox().state.now = () => Date.parse('2026-04-05T08:00:00.000Z');
		const newest = insert('Newest');
		const manual = await runPoll({
			parameters: {
				event: 'newEntry',
				dataSource: { __rl: true, mode: 'id', value: String(DEPARTMENTS) },
			} as never,
			credentials: sandboxCredential(sandbox(), TOKENS.app),
			mode: 'manual',
		});
		expect(manual.error).toBeUndefined();
		expect(ids(manual.items)).toEqual([newest.id]);
		expect(manual.staticData).toEqual({});
	});

	it('loses nothing when entries are deleted or added between the pages of one poll', async () => {
		let clock = Date.parse('2026-04-06T08:00:00.000Z');
		sandbox().state.now = () => (clock += 1);
		const start = await poll('newEntry', undefined);
		const added = Array.from({ length: 1100 }, (_, n) => insert(`E${n}`));
		let landed: Record<string, any> | undefined;
		// Just before the second page is read: ten entries of the first page vanish (shifting the
		// rest forward) and a new entry arrives.
		sandbox().beforeHandling({
			path: '/data/query$',
			nth: 2,
			run: () => {
				store.removeEntries(
					sandbox().state,
					DEPARTMENTS,
					added.slice(0, 10).map((e: any) => e.id),
				);
				landed = insert('Mid-poll');
			},
		});
		const one = await poll('newEntry', start.staticData, { maxEventsPerPoll: 5000 });
		const two = await poll('newEntry', one.staticData);
		const delivered = [...ids(one.items), ...ids(two.items)];
		expect(landed).toBeDefined();
		expect(delivered).toEqual([...added.map((e) => e.id), landed!.id]);
	});
});
