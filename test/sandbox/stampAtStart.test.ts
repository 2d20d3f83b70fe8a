/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The sandbox fault "a write that stamps its rows when it starts": its rows carry the time it was
// taken, and show only once it is released, so reads made in between do not see them.
import { callSandbox, TOKENS, useSandbox } from '../harness';
import { startStampedCommit } from '../harness/stampedCommit';

const sandbox = useSandbox();
const DEPARTMENTS = 101;
const QUERY = `/v1/data-sources/${DEPARTMENTS}/data/query`;

const insert = (name: string) =>
	callSandbox(sandbox(), 'PUT', `/v1/data-sources/${DEPARTMENTS}/data`, { Name: name }, TOKENS.org);

async function names() {
	const answer = await callSandbox(sandbox(), 'POST', QUERY, { type: 'select' }, TOKENS.org);
	return answer.body.entries.map((entry: any) => entry.data.Name);
}

describe('sandbox fault: stamp-at-start', () => {
	it('a commit keeps the time it started, and its rows show only when it ends', async () => {
		let clock = Date.parse('2026-06-01T08:00:00.000Z');
		sandbox().state.now = () => clock;
		const commit = await startStampedCommit(sandbox(), DEPARTMENTS, {
			append: true,
			entries: [{ data: { Name: 'Long commit' } }],
		});
		clock += 5_000;
		const quick = await insert('Quick insert');
		expect(quick.body.createdAt).toBe('2026-06-01T08:00:05.000Z');
		expect(await names()).not.toContain('Long commit');

		expect((await commit.land()).status).toBe(200);
		const stored = sandbox()
			.state.entries.filter((entry: any) => entry.dataSourceId === DEPARTMENTS)
			.find((entry: any) => entry.data.Name === 'Long commit');
		expect([stored.createdAt, stored.updatedAt]).toEqual([
			'2026-06-01T08:00:00.000Z',
			'2026-06-01T08:00:00.000Z',
		]);
		expect(stored.id).toBeGreaterThan(quick.body.id);
		// The clock is the sandbox's own again.
		expect(new Date(sandbox().state.now()).toISOString()).toBe('2026-06-01T08:00:05.000Z');
	});

	it('without a promise the write shows after delayMs, over the control endpoint too', async () => {
		const armed = await callSandbox(
			sandbox(),
			'POST',
			'/__sandbox/faults',
			{ mode: 'stamp-at-start', method: 'PUT', path: '/data$', delayMs: 300 },
			null,
		);
		expect(armed.status).toBe(200);
		const before = Date.now();
		const delayed = await insert('Delayed');
		expect(delayed.status).toBe(200);
		const stampedAt = Date.parse(delayed.body.createdAt);
		expect(stampedAt).toBeGreaterThanOrEqual(before);
		expect(Date.now() - stampedAt).toBeGreaterThanOrEqual(300);
	});
});
