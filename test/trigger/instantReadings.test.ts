/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The Instant Trigger under each reading of the hook's templates (the sandbox's `hookTemplates`
// and `hookValues` switches): what a template can name (`entry` also offers the entry record,
// `columns` only the columns, as in every vendor example) and how each payload value is read
// (`strict` compiles every value as a template: a number, or a name the entry does not hold,
// throws and the hook never fires). The hook the trigger writes holds strings without a template,
// so it fires in every reading, and each entry version starts exactly one run: with replays, calls
// that arrive together, calls that never arrive, inserts and updates mixed.
import {
	apiRequests,
	callSandbox,
	HOOK_TEMPLATE_READINGS,
	setSandboxReadings,
	TOKENS,
	useSandbox,
} from '../harness';
import { DEPARTMENTS, instantTriggerKit, versionOf } from './instantTriggerKit';

const sandbox = useSandbox();
const kit = instantTriggerKit(sandbox);

afterEach(async () => {
	await kit.stop();
});

/** Moves the sandbox's clock by hand from now on (each write at a time of its own). */
function manualClock(start: string) {
	const clock = { ms: Date.parse(start) };
	sandbox().state.now = () => clock.ms;
	return clock;
}

/** The body of every call the trigger's hook makes: the data source's id, as a string. */
const CALL_BODY = { dataSourceId: String(DEPARTMENTS) };

describe.each(HOOK_TEMPLATE_READINGS)(
	'Fliplet Instant Trigger, hook templates naming $hookTemplates, values read $hookValues',
	(readings) => {
		beforeEach(() => setSandboxReadings(sandbox(), readings));

		it('an inserted entry starts one run with the entry as the API stores it', async () => {
			const host = await kit.start(['insert']);
			await host.publish();
			const stored = await kit.insert({ Name: 'Research', id: 'R-1', createdAt: 'their own' });

			expect(host.calls.map((call) => [call.status, call.body])).toEqual([[200, CALL_BODY]]);
			expect(sandbox().state.hookLog.filter((run: { error?: string }) => run.error)).toEqual([]);
			expect(host.executions.map((execution) => execution.status)).toEqual(['success']);
			expect(kit.deliveredEntries()).toEqual([
				{
					id: stored.id,
					dataSourceId: DEPARTMENTS,
					createdAt: stored.createdAt,
					updatedAt: stored.updatedAt,
					data: { Name: 'Research', id: 'R-1', createdAt: 'their own' },
				},
			]);
			// Read with the workflow's credential.
			const reads = apiRequests(sandbox()).filter((request) => request.method !== 'PUT');
			expect(reads.length).toBeGreaterThan(0);
			expect(new Set(reads.map((request) => request.headers['auth-token']))).toEqual(
				new Set([TOKENS.org]),
			);
		});

		it('"Entry Updated" alone: an update runs, an insert does not, a commit only when it asks for hooks', async () => {
			const host = await kit.start(['update']);
			await host.publish();
			const entry = await kit.insert({ Name: 'Ops' });
			expect(host.calls).toHaveLength(0);

			const updated = await kit.update(entry.id, { Name: 'Operations' });
			// The insert, read along with the update, is no update: only the update runs.
			await kit.insert({ Name: 'Legal' });
			const commit = (runHooks?: string[]) =>
				callSandbox(
					sandbox(),
					'POST',
					`/v1/data-sources/${DEPARTMENTS}/commit`,
					{
						append: true,
						returnEntries: false,
						entries: [{ id: entry.id, data: { Name: 'Ops 2' } }],
						...(runHooks ? { runHooks } : {}),
					},
					TOKENS.org,
				);
			expect((await commit()).status).toBe(200);
			await kit.settle();
			expect(kit.deliveredVersions()).toEqual([versionOf(updated)]);
			expect((await commit(['update'])).status).toBe(200);
			await kit.settle();
			expect(kit.deliveredEntries().map((delivered) => delivered.data)).toEqual([
				{ Name: 'Operations' },
				{ Name: 'Ops 2' },
			]);
			expect(new Set(kit.deliveredVersions()).size).toBe(2);
		});

		it('a replayed call starts nothing; replayed after a real change, it delivers that change once', async () => {
			const clock = manualClock('2026-09-02T08:00:00.000Z');
			const host = await kit.start(['insert', 'update']);
			await host.publish();
			const entry = await kit.insert({ Name: 'Facilities' });
			expect(host.executions).toHaveLength(1);
			// Anyone who can read the data source's hooks can capture and replay a call.
			const [captured] = sandbox().state.hookCalls;
			const replay = () => kit.callHook(captured.headers, captured.body);
			const replies = [await replay(), await replay(), await replay()];
			await host.settled();
			expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
			expect(await replies[0].json()).toEqual({
				message: 'No entry changed since the last delivery',
			});
			expect(host.executions).toHaveLength(1);

			// The replay rings first after a real change: it delivers it, the change's own call nothing.
			clock.ms += 1_000;
			host.holdCalls();
			const updated = await kit.update(entry.id, { Name: 'Facilities & Security' });
			expect(await host.deliver([captured])).toEqual([200]);
			expect(host.executions).toHaveLength(2);
			expect(await host.deliver(host.held)).toEqual([200]);
			expect(kit.deliveredVersions()).toEqual([versionOf(entry), versionOf(updated)]);
			expect(kit.deliveredEntries()[1].data).toEqual({ Name: 'Facilities & Security' });
			// What it keeps is versions (id and time) and where reading resumes: no secret, no data.
			const kept = JSON.stringify(host.nodeStaticData.cursor);
			expect(kept).not.toContain('Facilities');
			expect(kept).not.toContain(String(host.nodeStaticData.secret));
		});

		it('calls that arrive together start one run per version between them', async () => {
			manualClock('2026-09-03T08:00:00.000Z');
			const host = await kit.start(['insert', 'update']);
			await host.publish();
			host.holdCalls();
			const a = await kit.insert({ Name: 'A' });
			const b = await kit.insert({ Name: 'B' });
			sandbox().state.now = () => Date.parse('2026-09-03T08:00:05.000Z');
			const a2 = await kit.update(a.id, { Name: 'A, renamed' });
			const c = await kit.insert({ Name: 'C' });
			expect(host.held).toHaveLength(4);

			// The first call's read waits until all four reached n8n, each with the same saved record.
			const allArrived = host.arrived(host.calls.length + 4);
			sandbox().beforeHandling({ method: 'POST', path: '/data/query$', run: () => allArrived });
			const statuses = await host.deliver(host.held, { together: true });
			expect(statuses).toEqual([200, 200, 200, 200]);
			// A's insert was overwritten before any call was handled: A is delivered as it is now.
			expect(kit.deliveredVersions().sort()).toEqual(
				[versionOf(b), versionOf(a2), versionOf(c)].sort(),
			);
			// All of them again, together: nothing new.
			await host.deliver(host.held, { together: true });
			expect(kit.deliveredVersions()).toHaveLength(3);
		});

		it('a call that never arrives is caught up by the next one', async () => {
			const clock = manualClock('2026-09-04T08:00:00.000Z');
			const host = await kit.start(['insert', 'update']);
			await host.publish();
			host.holdCalls();
			const a = await kit.insert({ Name: 'A' });
			clock.ms += 10;
			const b = await kit.insert({ Name: 'B' });
			// A's call is lost on its way: only B's arrives.
			await host.deliver([host.held[1]]);
			expect(host.executions).toHaveLength(1);
			expect(kit.deliveredVersions()).toEqual([versionOf(a), versionOf(b)]);

			// An update whose call never comes, then, half a minute later, another insert.
			clock.ms += 10;
			const a2 = await kit.update(a.id, { Name: 'A, renamed' });
			clock.ms += 30_000;
			const c = await kit.insert({ Name: 'C' });
			await host.deliver([host.held[3]]);
			expect(kit.deliveredVersions()).toEqual([a, b, a2, c].map((entry) => versionOf(entry)));
			// The lost calls, arriving at last, start nothing.
			await host.deliver([host.held[0], host.held[2]]);
			expect(host.executions).toHaveLength(2);
		});

		it('inserts and updates mixed, each call handled as it comes: every version once, in order', async () => {
			const clock = manualClock('2026-09-05T08:00:00.000Z');
			const host = await kit.start(['insert', 'update']);
			await host.publish();
			const versions: string[] = [];
			const write = async (change: () => Promise<any>) => {
				clock.ms += 7;
				versions.push(versionOf(await change()));
			};
			const a = await kit.insert({ Name: 'A' });
			versions.push(versionOf(a));
			await write(() => kit.update(a.id, { Name: 'A2' }));
			const b = await kit.insert({ Name: 'B' });
			versions.push(versionOf(b));
			await write(() => kit.update(a.id, { Name: 'A3' }));
			await write(() => kit.update(b.id, { Name: 'B2' }));
			await write(() => kit.insert({ Name: 'C' }));
			expect(host.executions.map((execution) => execution.items.length)).toEqual([
				1, 1, 1, 1, 1, 1,
			]);
			expect(kit.deliveredVersions()).toEqual(versions);
		});

		it('changes made before publishing start nothing; one stamped just before but made after runs once', async () => {
			const clock = manualClock('2026-09-01T08:00:00.000Z');
			const host = await kit.start(['insert']);
			await kit.insert({ Name: 'Stored an hour before publishing' });
			clock.ms += 3_600_000;
			await kit.insert({ Name: 'Stored a second before publishing' });
			clock.ms += 1_000;
			await host.publish();
			const call = () => kit.callHook(kit.signed(), CALL_BODY);
			const old = [await call(), await call()];
			await host.settled();
			expect(old.map((reply) => reply.status)).toEqual([200, 200]);
			expect(host.executions).toHaveLength(0);

			// A server whose clock lags stores an insert, after publishing, stamped 30 s earlier.
			clock.ms -= 30_000;
			const lagging = await kit.insert({ Name: 'Stamped before publishing, stored after' });
			clock.ms += 30_000;
			await call();
			await host.settled();
			expect(kit.deliveredEntries().map((entry) => entry.id)).toEqual([lagging.id]);
		});

		it('"Entry Inserted" alone: one run per entry, whatever changes later', async () => {
			const clock = manualClock('2026-09-06T08:00:00.000Z');
			const host = await kit.start(['insert']);
			await host.publish();
			const a = await kit.insert({ Name: 'A' });
			clock.ms += 5;
			await kit.update(a.id, { Name: 'A2' });
			clock.ms += 5;
			const b = await kit.insert({ Name: 'B' });
			// Replayed, A's call reads nothing new: its update is no insert.
			await kit.callHook(kit.signed(), CALL_BODY);
			await host.settled();
			expect(kit.deliveredEntries().map((entry) => entry.id)).toEqual([a.id, b.id]);
			expect(kit.deliveredVersions('createdAt')).toEqual([
				versionOf(a, 'createdAt'),
				versionOf(b, 'createdAt'),
			]);
		});
	},
);
