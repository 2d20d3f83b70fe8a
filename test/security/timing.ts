/** The result of `work` and the milliseconds it took. */
export function timed<T>(work: () => T): { result: T; ms: number } {
	const start = performance.now();
	const result = work();
	return { result, ms: performance.now() - start };
}

/** As `timed`, for asynchronous work (a run through the engine). */
export async function timedAsync<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
	const start = performance.now();
	const result = await work();
	return { result, ms: performance.now() - start };
}

/** The fastest of `runs` timings of `work`: the least disturbed by other work on a busy machine. */
export function fastestMs(work: () => unknown, runs = 3): number {
	let fastest = Infinity;
	for (let run = 0; run < runs; run++) fastest = Math.min(fastest, timed(work).ms);
	return fastest;
}

/**
 * How much longer `check` takes on a text ten times as long (1 MB, then 10 MB): about 10 when the
 * work is linear, about 100 when it is quadratic. A first look at 100 kB stops a quadratic check
 * early (it would take minutes at 10 MB), so the test fails instead of freezing.
 */
export function growthFactor(check: (text: string) => unknown, textOf: (length: number) => string) {
	const small = textOf(100_000);
	const smallMs = fastestMs(() => check(small));
	if (smallMs > 1_000) return { factor: Infinity, largeMs: Infinity, smallMs };
	const oneMb = textOf(1_000_000);
	const tenMb = textOf(10_000_000);
	// A floor of 20 ms: below it, a garbage collection or a busy core would dwarf the work itself.
	// Quadratic work still shows: it takes seconds at 1 MB, or fails the look at 100 kB.
	const mediumMs = Math.max(
		fastestMs(() => check(oneMb)),
		20,
	);
	const largeMs = fastestMs(() => check(tenMb), 2);
	return { factor: largeMs / mediumMs, largeMs, smallMs };
}

/**
 * Asserts that `check` is linear in the length of its text: ten times the text takes less than 30
 * times as long (quadratic work takes about 100 times), and 10 MB is checked within seconds even
 * on a busy machine.
 */
export function expectLinear(check: (text: string) => unknown, textOf: (length: number) => string) {
	const growth = growthFactor(check, textOf);
	expect({ ...growth, linear: growth.factor < 30, inSeconds: growth.largeMs < 10_000 }).toEqual({
		...growth,
		linear: true,
		inSeconds: true,
	});
}
