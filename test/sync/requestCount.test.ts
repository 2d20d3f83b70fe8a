import { faultNthRequest, useSandbox, type Sandbox } from '../harness';
import { faultNthCommit } from '../reliability/commitFaults';
import {
	dataSourceWith,
	duplicateKeys,
	otherWriterInserts,
	queriesOf,
	runSync,
	useReadSizes,
} from './fixtures';

const sandbox = useSandbox();

const QUERY = { method: 'POST', path: /\/data\/query$/ };

/** A 429 that asks to come back at once: the transport waits and sends the request again. */
const REFUSED = {
	mode: 'status-before' as const,
	status: 429,
	body: { message: 'Too many requests', nextValidRequestDate: new Date().toISOString() },
};

/** Just before the `nth` commit is handled, another writer inserts an entry of `email`. */
function otherWriterBeforeCommit(box: Sandbox, dataSourceId: number, email: string, nth = 1) {
	box.beforeHandling({
		path: '/commit$',
		nth,
		run: (state) => otherWriterInserts(state, dataSourceId, { Email: email, By: 'other' }),
	});
}

describe("Entry → Sync: the summary's requests are those the API received", () => {
	// Pages of 3 entries and 2 keys per read by key: tens of rows meet every path.
	useReadSizes({ page: 3, targetedKeys: 2 });

	it('a full read given up for reads by key, a read sent again after a 503 and after a 429, a lost commit read back, a repair', async () => {
		const existing = Array.from({ length: 30 }, (_, n) => ({ Email: `e${n}@x.io`, N: n }));
		const id = await dataSourceWith(sandbox(), existing);
		// The first page fails once (the transport sends it again), a later read is refused once.
		faultNthRequest(sandbox(), QUERY, 1, { mode: 'status-before', status: 503 });
		faultNthRequest(sandbox(), QUERY, 4, REFUSED);
		faultNthCommit(sandbox(), 2, { mode: 'drop-after' });
		otherWriterBeforeCommit(sandbox(), id, 'new1@x.io');
		const rows = [
			{ Email: 'e1@x.io', N: 100 },
			{ Email: 'e2@x.io', N: 2 },
			{ Email: 'new1@x.io', N: 1 },
			{ Email: 'new2@x.io', N: 2 },
		];
		const result = await runSync(sandbox(), id, rows, { syncOptions: { chunkSize: 1 } });

		expect(result.error).toBeUndefined();
		// The lost insert of new1 is found beside the other writer's entry: that one (the older) is
		// updated to the row, and Sync's own removed.
		expect(result.json[0]).toMatchObject({
			inserted: 1,
			updated: 2,
			unchanged: 1,
			duplicatesRemoved: 1,
			recovered: { commits: 1 },
		});
		expect(duplicateKeys(sandbox(), id)).toEqual([]);
		const statuses = sandbox().requests.map((request) => request.status);
		expect(statuses).toEqual(expect.arrayContaining([503, 429, 0]));
		// Sent twice, received twice: each attempt counts.
		expect(result.json[0].requests).toBe(sandbox().requests.length);
		expect(queriesOf(sandbox()).length).toBeGreaterThan(4);
	});

	it('pages asked for ahead of the first answer count only as they were sent', async () => {
		const id = await dataSourceWith(sandbox(), []);
		const rows = Array.from({ length: 8 }, (_, n) => ({ Email: `k${n}@x.io` }));
		const result = await runSync(sandbox(), id, rows);

		expect(result.error).toBeUndefined();
		// The pages the rows would fill went out together; the first answer said there was nothing.
		expect(queriesOf(sandbox()).filter((query) => query.body.offset !== undefined).length).toBe(3);
		expect(result.json[0]).toMatchObject({ inserted: 8 });
		expect(result.json[0].requests).toBe(sandbox().requests.length);
	});
});
