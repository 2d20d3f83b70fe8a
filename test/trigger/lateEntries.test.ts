/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The entry trigger against writers that the high-water mark alone misses: an entry changed while
// a poll pages, a commit whose rows carry the time it started but show when it ends, a server
// clock that lags. Every insert and every edit is delivered, each version once.
import { callSandbox, onSandboxRequest, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { emittedIds, runPoll } from '../harness/poll';
import { LOOK_BACK_MS, MAX_REMEMBERED } from '../../nodes/FlipletTrigger/lookBack';

// The sandbox is plain JavaScript so scripts can run it without a build.
const store = require('../../sandbox/dataSources/store');

const sandbox = useSandbox();
const DEPARTMENTS = 101;

function poll(event: string, staticData: Record<string, any> | undefined, max?: number) {
	return runPoll({
		parameters: {
			event,
			dataSource: { __rl: true, mode: 'id', value: String(DEPARTMENTS) },
			...(max === undefined ? {} : { maxEventsPerPoll: max }),
		} as never,
		credentials: sandboxCredential(sandbox(), TOKENS.app),
		staticData,
		mode: 'trigger',
	});
}

function insert(name: string) {
	const state = sandbox().state;
	const entry = store.newEntry(state, { id: DEPARTMENTS }, { Name: name });
	store.appendEntries(state, DEPARTMENTS, [entry]);
	return entry;
}

function update(entry: Record<string, any>, name: string): Record<string, any> {
	const changed = {
		...entry,
		data: { Name: name },
		updatedAt: new Date(sandbox().state.now()).toISOString(),
	};
	store.replaceEntry(sandbox().state, DEPARTMENTS, changed);
	return changed;
}

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
		const one = await poll('newOrUpdatedEntry', start.staticData, 5000);
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
		let release!: () => void;
		const taken = new Promise<void>((resolve) =>
			onSandboxRequest(sandbox(), (request) => request.path.endsWith('/commit') && resolve()),
		);
		sandbox().injectFault({
			mode: 'stamp-at-start',
			method: 'POST',
			path: '/commit$',
			waitFor: new Promise<void>((resolve) => (release = resolve)),
		});
		const commit = callSandbox(
			sandbox(),
			'POST',
			`/v1/data-sources/${DEPARTMENTS}/commit`,
			{
				append: true,
				entries: [
					{ data: { Name: 'From the commit' } },
					{ id: existing.id, data: { Name: 'Edited' } },
				],
			},
			TOKENS.org,
		);
		await taken;
		// Meanwhile another writer's entry shows at once, and a poll moves the cursor past it.
		clock += 5_000;
		const quick = insert('Quick');
		const one = await poll('newOrUpdatedEntry', start.staticData);
		expect(delivered(one.items)).toEqual([[quick.id, 'Quick']]);
		expect(cursorOf(one.staticData).at).toBe(quick.updatedAt);

		release();
		expect((await commit).status).toBe(200);
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

	it('New Entry: an entry from a server whose clock lags is delivered, once', async () => {
		let clock = Date.parse('2026-07-03T08:00:00.000Z');
		sandbox().state.now = () => clock;
		const start = await poll('newEntry', undefined);
		clock += 10_000;
		const first = insert('On time');
		const one = await poll('newEntry', start.staticData);
		expect(delivered(one.items)).toEqual([[first.id, 'On time']]);
		// Another server, one second behind, stores an entry just after that poll.
		clock -= 1_000;
		const lagging = insert('Lagging');
		clock += 1_500;
		const next = insert('Next');
		const two = await poll('newEntry', one.staticData);
		expect(delivered(two.items)).toEqual([
			[lagging.id, 'Lagging'],
			[next.id, 'Next'],
		]);
		expect((await poll('newEntry', two.staticData)).items).toBeNull();
	});

	it('an entry stamped further back than the look-back is history', async () => {
		let clock = Date.parse('2026-07-04T08:00:00.000Z');
		sandbox().state.now = () => clock;
		const start = await poll('newEntry', undefined);
		clock += 10_000;
		const first = insert('On time');
		const one = await poll('newEntry', start.staticData);
		expect(emittedIds(one.items)).toEqual([first.id]);
		clock -= LOOK_BACK_MS + 1;
		insert('Too late');
		expect((await poll('newEntry', one.staticData)).items).toBeNull();
	});

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
			const result = await poll('newEntry', staticData, 700);
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
