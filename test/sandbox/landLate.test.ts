/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The sandbox fault "a write that lands late": the client's answer is lost at once (a gateway's 504,
// a dropped connection) while the server still holds the write, which is stored later.
import { callSandbox, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();
const DEPARTMENTS = 101;
const COMMIT = `/v1/data-sources/${DEPARTMENTS}/commit`;

const commit = (name: string) =>
	callSandbox(
		sandbox(),
		'POST',
		COMMIT,
		{ append: true, entries: [{ data: { Name: name } }] },
		TOKENS.org,
	);

const names = () =>
	sandbox()
		.state.entries.filter((entry: any) => entry.dataSourceId === DEPARTMENTS)
		.map((entry: any) => entry.data.Name);

describe('sandbox fault: land-late', () => {
	it('answers 504 at once, stores nothing until landed, then stores the write as sent', async () => {
		sandbox().injectFault({ mode: 'land-late', method: 'POST', path: '/commit$' });
		const answer = await commit('Held');
		expect(answer.status).toBe(504);
		expect(names()).not.toContain('Held');
		// Other requests are served meanwhile.
		expect((await commit('Quick')).status).toBe(200);
		expect(sandbox().held).toHaveLength(1);

		expect(await sandbox().landHeld()).toBe(1);
		expect(names().slice(-2)).toEqual(['Quick', 'Held']);
		const [held] = sandbox().requests;
		expect(held).toMatchObject({ status: 504, landedLate: true, landedStatus: 200 });
		expect(sandbox().held).toHaveLength(0);
		// Landing again does nothing.
		expect(await sandbox().landHeld()).toBe(0);
		expect(names().filter((name: string) => name === 'Held')).toHaveLength(1);
	});

	it('drops the connection instead with drop, and lands when its promise settles', async () => {
		let land!: () => void;
		sandbox().injectFault({
			mode: 'land-late',
			drop: true,
			method: 'POST',
			path: '/commit$',
			waitFor: new Promise<void>((resolve) => (land = resolve)),
		});
		await expect(commit('Dropped')).rejects.toThrow();
		expect(names()).not.toContain('Dropped');
		land();
		await new Promise((resolve) => setImmediate(resolve));
		expect(names()).toContain('Dropped');
		expect(sandbox().requests[0]).toMatchObject({ status: 0, landedLate: true });
	});

	it('over the control endpoints: armed with a delay, or landed by a call; a reset discards it', async () => {
		const armed = await callSandbox(
			sandbox(),
			'POST',
			'/__sandbox/faults',
			{ mode: 'land-late', status: 502, method: 'POST', path: '/commit$', count: 2 },
			null,
		);
		expect(armed.status).toBe(200);
		expect((await commit('First')).status).toBe(502);
		expect((await commit('Second')).status).toBe(502);
		const landed = await callSandbox(sandbox(), 'POST', '/__sandbox/held/land', {}, null);
		expect(landed.body).toEqual({ landed: 2 });
		expect(names().slice(-2)).toEqual(['First', 'Second']);

		await callSandbox(
			sandbox(),
			'POST',
			'/__sandbox/faults',
			{ mode: 'land-late', method: 'POST', path: '/commit$', delayMs: 100 },
			null,
		);
		expect((await commit('Delayed')).status).toBe(504);
		expect(names()).not.toContain('Delayed');
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(names()).toContain('Delayed');

		sandbox().injectFault({ mode: 'land-late', method: 'POST', path: '/commit$' });
		expect((await commit('Discarded')).status).toBe(504);
		const held = sandbox().held[0];
		sandbox().reset();
		await held.land();
		expect(names()).not.toContain('Discarded');
	});
});
