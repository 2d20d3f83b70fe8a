/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The entry trigger against writers that the high-water mark alone misses: an entry changed while
// a poll pages, a commit whose rows carry the time it started but show when it ends, a server
// clock that lags. Every insert and every edit is delivered, each version once.
import { useSandbox } from '../harness';
import { emittedIds } from '../harness/poll';
import { startStampedCommit } from '../harness/stampedCommit';
import { LOOK_BACK_MS, MAX_REMEMBERED } from '../../nodes/FlipletTrigger/lookBack';
import { DEPARTMENTS, entryTriggerKit } from './entryTriggerKit';

// The sandbox is plain JavaScript so scripts can run it without a build.
const store = require('../../sandbox/dataSources/store');

const sandbox = useSandbox();
const { poll, insert, update } = entryTriggerKit(sandbox);

const delivered = (items: Array<{ json: Record<string, any> }> | null) =>
	(items ?? []).map((item) => [item.json.id, item.json.data.Name]);

const cursorOf = (staticData: Record<string, any>) =>
	(staticData['node:Fliplet Trigger'] as any).cursor;

describe('Fliplet Trigger → entries that show up late', () => {
	it('New or Updated: an entry changed while a catch-up pages is delivered as it is now, once', async () => {
		let clock = Date.parse('2026-07-01T08:00:00.000Z');
		sandbox().state.now = () => clock;
		const start = await poll('newOrUpdatedEntry', undefined);
		const added = Array.from({ length: 1100 }, (_, n) => {
			clock += 1;
			return insert(`E${n}`);
		});
		let edited: Record<string, any> | undefined;
		// Once the first page is served, its first entry is edited: it moves to the end of the order.
		sandbox().beforeHandling({
			path: '/data/query$',
			nth: 2,
			run: () => {
				clock += 1;
				edited = update(added[0], 'E0 edited');
			},
		});
		const one = await poll('newOrUpdatedEntry', start.staticData, { maxEventsPerPoll: 5000 });
		expect(edited).toBeDefined();
		const ids = emittedIds(one.items);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.sort()).toEqual(added.map((entry) => entry.id).sort());
		expect(delivered(one.items).find(([id]) => id === added[0].id)).toEqual([
			added[0].id,
			'E0 edited',
		]);
		expect((await poll('newOrUpdatedEntry', one.staticData)).items).toBeNull();
	});

	it('delivers the rows of a commit that stamped them when it started and showed them later', async () => {
		let clock = Date.parse('2026-07-02T08:00:00.000Z');
		sandbox().state.now = () => clock;
		const existing = insert('Existing');
		clock += 1_000;
		const start = await poll('newOrUpdatedEntry', undefined);

		// A long commit starts: it inserts one entry and edits another, stamped now.
		const commit = await startStampedCommit(sandbox(), DEPARTMENTS, {
			append: true,
			entries: [
				{ data: { Name: 'From the commit' } },
				{ id: existing.id, data: { Name: 'Edited' } },
			],
		});
		// Meanwhile another writer's entry shows at once, and a poll moves the cursor past it.
		clock += 5_000;
		const quick = insert('Quick');
		const one = await poll('newOrUpdatedEntry', start.staticData);
		expect(delivered(one.items)).toEqual([[quick.id, 'Quick']]);
		expect(cursorOf(one.staticData).at).toBe(quick.updatedAt);

		expect((await commit.land()).status).toBe(200);
		const two = await poll('newOrUpdatedEntry', one.staticData);
		const fromCommit = store
			.entriesOf(sandbox().state, DEPARTMENTS)
			.find((entry: any) => entry.data.Name === 'From the commit');
		expect(Date.parse(fromCommit.updatedAt)).toBeLessThan(Date.parse(quick.updatedAt));
		expect(delivered(two.items)).toEqual([
			[existing.id, 'Edited'],
			[fromCommit.id, 'From the commit'],
		]);
		expect((await poll('newOrUpdatedEntry', two.staticData)).items).toBeNull();
	});

	it.each([
		['a second', 1_000, true],
		['more than the look-back', LOOK_BACK_MS + 1, false],
	])(
		'New Entry: an entry from a server whose clock lags %s (delivered: %s)',
		async (_, lagMs, delivered) => {
			let clock = Date.parse('2026-07-03T08:00:00.000Z');
			sandbox().state.now = () => clock;
			const start = await poll('newEntry', undefined);
			clock += 10_000;
			const first = insert('On time');
			const one = await poll('newEntry', start.staticData);
			expect(emittedIds(one.items)).toEqual([first.id]);
			// Another server, whose clock is behind, stores an entry just after that poll.
			clock -= lagMs;
			const lagging = insert('Lagging');
			clock += lagMs + 500;
			const next = insert('Next');
			const two = await poll('newEntry', one.staticData);
			expect(emittedIds(two.items)).toEqual(delivered ? [lagging.id, next.id] : [next.id]);
			expect((await poll('newEntry', two.staticData)).items).toBeNull();
		},
	);

	it('keeps its cursor bounded: a burst in one minute, and 1,000 entries sharing one time', async () => {
		let clock = Date.parse('2026-07-05T08:00:00.000Z');
		sandbox().state.now = () => clock;
		const start = await poll('newEntry', undefined);
		const burst = Array.from({ length: 3000 }, (_, n) => {
			if (n % 2) clock += 10;
			return insert(`B${n}`);
		});
		clock += 1;
		const tied = Array.from({ length: 1000 }, (_, n) => insert(`T${n}`));
		let staticData = start.staticData;
		const seen: unknown[] = [];
		for (;;) {
			const result = await poll('newEntry', staticData, { maxEventsPerPoll: 700 });
			expect(result.error).toBeUndefined();
			staticData = result.staticData;
			const remembered = cursorOf(staticData).delivered.length;
			// The versions sharing the newest time stay, however many.
			expect(remembered).toBeLessThanOrEqual(Math.max(MAX_REMEMBERED, tied.length));
			if (!result.items) break;
			seen.push(...emittedIds(result.items));
		}
		expect(seen).toEqual([...burst, ...tied].map((entry) => entry.id));
		expect(JSON.stringify(cursorOf(staticData)).length).toBeLessThan(60_000);
	});

	it('carries on from a cursor saved before the look-back, without repeats or losses', async () => {
		let clock = Date.parse('2026-07-06T08:00:00.000Z');
		sandbox().state.now = () => clock;
		const old = [insert('Old A'), insert('Old B')];
		const key = `entry:updatedAt:${DEPARTMENTS}`;
		const saved = {
			'node:Fliplet Trigger': {
				cursor: { key, at: old[0].updatedAt, ids: old.map((e) => String(e.id)) },
			},
		};
		clock += 1;
		const fresh = insert('Fresh');
		const one = await poll('newOrUpdatedEntry', saved);
		expect(emittedIds(one.items)).toEqual([fresh.id]);
		expect(cursorOf(one.staticData)).toMatchObject({ key, at: fresh.updatedAt });
		expect((await poll('newOrUpdatedEntry', one.staticData)).items).toBeNull();
	});
});
