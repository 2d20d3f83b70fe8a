import { longestRefusalRun, refusalFigures, type Arrival } from '../harness/refusals';

// How the benchmarks and the queue-mode tier count refusals (scripts/lib/refusals.js, a pure
// helper): the longest run of refusals of one request, and the pace against the limit's windows.

const look = (at: number, status: number, reopensAt?: number): Arrival => ({
	method: 'POST',
	path: '/v1/data-sources/7/data/query',
	body: { limit: 1 },
	status,
	at,
	reopensAt,
});

describe('the longest run of refusals of one request', () => {
	it('counts a request refused, sent again at the time named and refused again', () => {
		expect(longestRefusalRun([look(0, 429, 100), look(100, 429, 200), look(200, 200)])).toBe(2);
		expect(longestRefusalRun([look(0, 429, 100), look(100, 429, 200), look(205, 429, 300)])).toBe(
			3,
		);
	});

	it('tells alike requests on their way together apart: one arriving before the time named is another request', () => {
		// Three Syncs' looks at the data source's first entry, refused at once, each once.
		const together = [look(0, 429, 100), look(3, 429, 100), look(5, 429, 100)];
		expect(longestRefusalRun([...together, look(100, 200), look(101, 200), look(102, 200)])).toBe(
			1,
		);
		// One of them refused again when it comes back: a run of two, whichever it was.
		expect(
			longestRefusalRun([...together, look(100, 200), look(101, 429, 200), look(102, 200)]),
		).toBe(2);
	});

	it('an answer after the time named ends one of the runs waiting, the shortest', () => {
		const runs = [
			look(0, 429, 100),
			look(100, 429, 300),
			look(150, 429, 300),
			look(300, 200),
			look(310, 429, 400),
		];
		// 0 → 100 (2 in a row) and 150 wait; the answer at 300 ends the run of one; the refusal at
		// 310 may be the third of the first.
		expect(longestRefusalRun(runs)).toBe(3);
	});

	it('without the times named, alike requests count as one, and any answer ends the run', () => {
		const strip = (request: Arrival): Arrival => {
			const recorded = { ...request };
			delete recorded.reopensAt;
			return recorded;
		};
		const together = [look(0, 429, 100), look(3, 429, 100), look(5, 429, 100)].map(strip);
		expect(longestRefusalRun(together)).toBe(3);
		expect(longestRefusalRun([...together, look(6, 200), look(7, 429)].map(strip))).toBe(3);
	});

	it('tells alike requests of senders with their own tags apart, even after the time named', () => {
		const from = (tag: string, at: number, status: number, reopensAt?: number): Arrival => ({
			...look(at, status, reopensAt),
			tag,
		});
		// Two runs' alike looks, each refused once and served when it came back: the second run's
		// first look arrived after the first's refusal named its time, which untagged would be a re-send.
		const tagged = [from('r1', 0, 429, 50), from('r2', 104, 429, 150), from('r1', 120, 200)];
		expect(longestRefusalRun([...tagged, from('r2', 160, 200)])).toBe(1);
		const untagged = tagged.map((request) => ({ ...request, tag: undefined }));
		expect(longestRefusalRun(untagged)).toBe(2);
		// One run's look refused three times in a row stays a run of three beside the other's.
		expect(
			longestRefusalRun([
				from('r1', 0, 429, 50),
				from('r2', 10, 200),
				from('r1', 60, 429, 90),
				from('r1', 95, 429, 120),
			]),
		).toBe(3);
	});

	it('different requests never share a run', () => {
		const other = (at: number, reopensAt: number): Arrival => ({
			...look(at, 429, reopensAt),
			body: { limit: 2 },
		});
		expect(
			longestRefusalRun([look(0, 429, 100), other(1, 100), look(100, 429, 200), other(101, 200)]),
		).toBe(2);
	});
});

describe('the figures of a run', () => {
	const limit = { limit: 200, windowMs: 10_000 };

	it("give the pace against the best the limit's windows allow: the limit at once, then again each window", () => {
		const at = (n: number, ms: number) => Array.from({ length: n }, () => look(ms, 200));
		// 601 requests in three full windows and one more: the best is 30 s.
		const best = refusalFigures(
			[...at(200, 0), ...at(200, 10_000), ...at(200, 20_000), ...at(1, 30_000)],
			limit,
		);
		expect(best).toMatchObject({ requests: 601, refused: 0, bestWindows: 3, pace: 1 });
		// The same requests evenly spaced at the limit's rate take 30 s too; half as fast, half the pace.
		const even = Array.from({ length: 601 }, (_, n) => look(n * 50, 200));
		expect(refusalFigures(even, limit).pace).toBeCloseTo(1);
		const slow = Array.from({ length: 601 }, (_, n) => look(n * 100, 200));
		expect(refusalFigures(slow, limit).pace).toBeCloseTo(0.5);
	});

	it('count the refused share and both runs: of one request, and of alike requests as one', () => {
		const figures = refusalFigures(
			[look(0, 429, 100), look(3, 429, 100), look(100, 200), look(101, 200)],
			limit,
		);
		expect(figures).toMatchObject({
			requests: 4,
			refused: 2,
			longestRefusalRun: 1,
			alikeRefusalRun: 2,
		});
	});
});
