import {
	AI_POLICY,
	Allowance,
	CAREFUL_POLICY,
	processesOf,
	STEADY_POLICY,
	type PacePolicy,
} from '../../nodes/Fliplet/transport/allowance';
import {
	COMMUNICATE_LIMIT,
	DATA_SOURCE_LIMIT,
	type RateLimit,
} from '../../nodes/Fliplet/transport/rateLimits';

// The allowance of one n8n process on a shared token (a pure helper: time is passed in). Periods
// between growth steps last `growEveryWindows` windows times 0.5 + random(): random() is 0.5 here,
// so a period is exactly one window.

const W = DATA_SOURCE_LIMIT.windowMs;

function allowance(
	processes = 1,
	policy: PacePolicy = STEADY_POLICY,
	rate: RateLimit = DATA_SOURCE_LIMIT,
	random = () => 0.5,
) {
	return new Allowance(rate, policy, processes, random);
}

/**
 * Ends `windows` growth periods after `from`, each used to the full (or not); returns the time.
 * The first period starts at the first request (`a.take(0)`) or at a refusal.
 */
function grow(a: Allowance, from: number, windows: number, usedFully = true): number {
	let now = from;
	for (let n = 0; n < windows; n++) {
		if (usedFully) a.noteFullUse();
		now += a.rate.windowMs;
		a.take(now);
	}
	return now;
}

/** A refusal at `now`, naming `now`, of a request's first attempt (or its `inARow`-th). */
const refuse = (a: Allowance, now: number, share?: number, inARow = 1) =>
	a.refuse(now, now, inARow, share);

describe("the credential's count of processes", () => {
	it.each([
		[undefined, 1],
		[1, 1],
		[0, 1],
		[-3, 1],
		['x', 1],
		['3', 3],
		[4.7, 4],
		[5000, 1000],
	])('reads %p as %i', (setting, count) => {
		expect(processesOf(setting)).toBe(count);
	});

	it("starts each process at that share of the limit, never below the policy's floor", () => {
		expect(allowance(1).value).toBe(200);
		expect(allowance(4).value).toBe(50);
		expect(allowance(1000).value).toBe(4);
		expect(allowance(3, CAREFUL_POLICY, COMMUNICATE_LIMIT).value).toBeCloseTo(20 / 3);
		expect(allowance(100, CAREFUL_POLICY, COMMUNICATE_LIMIT).value).toBe(1);
	});

	it('a count raised on the credential lowers the allowance to the new share; lowered, it changes nothing', () => {
		const a = allowance(1);
		a.share(4);
		expect(a.value).toBe(50);
		a.share(2);
		expect(a.value).toBe(50);
	});
});

describe('full windows', () => {
	/** When each of `count` requests may go, sent as soon as it may (the window aside). */
	function starts(a: Allowance, count: number, from = 0): number[] {
		const times: number[] = [];
		for (let n = 0; n < count; n++) {
			const at = Math.max(times[times.length - 1] ?? from, a.earliest());
			a.take(at);
			times.push(at);
		}
		return times;
	}

	it('a process counted alone that met no refusal sends its whole allowance at once, data, email and AI alike', () => {
		for (const [policy, rate] of [
			[STEADY_POLICY, DATA_SOURCE_LIMIT],
			[CAREFUL_POLICY, COMMUNICATE_LIMIT],
			[AI_POLICY, { limit: 10, windowMs: 60_000 }],
		] as const) {
			const a = allowance(1, policy, rate);
			expect(a.fullWindows).toBe(true);
			expect(starts(a, rate.limit)).toEqual(Array(rate.limit).fill(0));
		}
	});

	it('so does one within the share the count gives it: the shares together never pass the limit', () => {
		const a = allowance(2);
		expect(a.fullWindows).toBe(true);
		expect(starts(a, 100)).toEqual(Array(100).fill(0));
	});

	it('each place is taken again a little after its window, so that another process refused once finds the place its refusal named', () => {
		expect(allowance(1).retakeLagMs).toBe(STEADY_POLICY.retakeLagShare * W);
		// At least as long as the spread after a first refusal: that request comes back within it.
		for (const policy of [STEADY_POLICY, CAREFUL_POLICY, AI_POLICY]) {
			expect(policy.retakeLagShare).toBeGreaterThanOrEqual(policy.spreadShare.first);
		}
	});

	it('after a refusal it spaces its requests: after a quiet spell a small burst, then one request every window ÷ allowance; a tenth (data sources), a quarter (sends), a half (AI)', () => {
		const data = allowance(1);
		const until = refuse(data, 0);
		expect(data.fullWindows).toBe(false);
		expect(data.retakeLagMs).toBe(0);
		expect(data.value).toBe(100);
		const quiet = until + W;
		const times = starts(data, 12, quiet);
		expect(times.slice(0, 10)).toEqual(Array(10).fill(quiet));
		expect(times.slice(10)).toEqual([quiet + 100, quiet + 200]);
		const sends = allowance(1, CAREFUL_POLICY, COMMUNICATE_LIMIT);
		const sendsQuiet = refuse(sends, 0) + COMMUNICATE_LIMIT.windowMs;
		expect(starts(sends, 4, sendsQuiet).map((at) => at - sendsQuiet)).toEqual([0, 0, 0, 3_000]);
		const ai = allowance(1, AI_POLICY, { limit: 10, windowMs: 60_000 });
		const aiQuiet = refuse(ai, 0) + 60_000;
		expect(starts(ai, 4, aiQuiet).map((at) => at - aiQuiet)).toEqual([0, 0, 0, 12_000]);
	});

	it('past its share (probing for room the others leave), it spaces its requests too', () => {
		const a = allowance(2);
		a.take(0);
		let now = 0;
		while (a.value < 101) now = grow(a, now, 1);
		expect(a.fullWindows).toBe(false);
		const [first, second] = starts(a, 12, now).slice(10);
		expect(second - first).toBeCloseTo(W / a.value);
	});
});

describe('a refusal', () => {
	it("the first shows another process: no more than an even share of two, nor than the process's share of the requests the platform counted", () => {
		const busy = allowance(1);
		refuse(busy, 0, 180);
		expect(busy.value).toBe(100);
		// Four processes that each started at the whole limit: a quarter each, at once.
		const quarter = allowance(1);
		refuse(quarter, 0, 50);
		expect(quarter.value).toBe(50);
		// Not told: the even share of two.
		const unknown = allowance(1);
		refuse(unknown, 0);
		expect(unknown.value).toBe(100);
		const sends = allowance(1, CAREFUL_POLICY, COMMUNICATE_LIMIT);
		refuse(sends, 0, 20);
		expect(sends.value).toBe(10);
	});

	it('later ones multiply it by the decrease of the policy, halfway to 1 at or below the even share: the sends give way harder', () => {
		const data = allowance(1);
		refuse(data, 0, 180);
		refuse(data, W, 180);
		expect(data.value).toBeCloseTo(100 * 0.85);
		const sends = allowance(1, CAREFUL_POLICY, COMMUNICATE_LIMIT);
		refuse(sends, 0, 20);
		refuse(sends, COMMUNICATE_LIMIT.windowMs, 20);
		expect(sends.value).toBeCloseTo(10 * 0.75);
		expect(CAREFUL_POLICY.decrease).toBeLessThan(STEADY_POLICY.decrease);
	});

	it('the refusals of one window shrink it once; a request refused again shrinks it at once, by the whole decrease', () => {
		const a = allowance(1);
		refuse(a, 0, 180);
		refuse(a, W - 1, 180);
		expect(a.value).toBe(100);
		refuse(a, W - 1, 180, 2);
		expect(a.value).toBeCloseTo(70);
		refuse(a, W, 180, 3);
		expect(a.value).toBeCloseTo(49);
	});

	it("within the share the credential's count gives it, a lone refusal (another process probing) shrinks nothing; a second in the window does", () => {
		const a = allowance(2);
		refuse(a, 0);
		expect(a.value).toBe(100);
		expect(a.fullWindows).toBe(false);
		refuse(a, W / 2);
		expect(a.value).toBeCloseTo(85);
		// A request refused again shrinks it whatever the count says.
		const again = allowance(2);
		refuse(again, 0, undefined, 2);
		expect(again.value).toBeCloseTo(70);
	});

	it('a probe past a level known to fit goes back to that level', () => {
		const a = allowance(2);
		a.take(0);
		let now = 0;
		while (a.value <= 110) now = grow(a, now, 1);
		const fitted = a.value;
		now = grow(a, now, 1);
		expect(a.value).toBeGreaterThan(fitted);
		refuse(a, now);
		expect(a.value).toBe(fitted);
	});

	it('never shrinks it below the floor', () => {
		const a = allowance(1000);
		for (let n = 0; n < 5; n++) refuse(a, n * W, 4, 2);
		expect(a.value).toBe(4);
	});
});

describe('the hold after a refusal', () => {
	const spreadOf = (policy: PacePolicy, rate: RateLimit, inARow: number, random: number) => {
		const a = allowance(1, policy, rate, () => random);
		return a.refuse(1_000, 5_000, inARow, rate.limit) - 5_000;
	};

	it('ends at the time the platform named plus a random spread, wider after a second refusal in a row', () => {
		const steady = STEADY_POLICY.spreadShare;
		expect(spreadOf(STEADY_POLICY, DATA_SOURCE_LIMIT, 1, 0)).toBe(0);
		expect(spreadOf(STEADY_POLICY, DATA_SOURCE_LIMIT, 1, 1)).toBe(steady.first * W);
		expect(spreadOf(STEADY_POLICY, DATA_SOURCE_LIMIT, 2, 1)).toBe(steady.again * W);
		expect(spreadOf(STEADY_POLICY, DATA_SOURCE_LIMIT, 5, 0.5)).toBe((steady.again * W) / 2);
		expect(steady.again).toBeGreaterThan(steady.first);
		// The sends spread wider, and in their longer window.
		const careful = CAREFUL_POLICY.spreadShare;
		const sendsWindow = COMMUNICATE_LIMIT.windowMs;
		expect(careful.first).toBeGreaterThan(steady.first);
		expect(careful.again).toBeGreaterThan(steady.again);
		expect(spreadOf(CAREFUL_POLICY, COMMUNICATE_LIMIT, 1, 1)).toBe(careful.first * sendsWindow);
		expect(spreadOf(CAREFUL_POLICY, COMMUNICATE_LIMIT, 2, 1)).toBe(careful.again * sendsWindow);
	});

	it('starts from now when the named time has passed', () => {
		const a = allowance(1, STEADY_POLICY, DATA_SOURCE_LIMIT, () => 0);
		expect(a.refuse(9_000, 5_000, 1, 200)).toBe(9_000);
	});

	it('lets nothing go before it ends, then requests go at the even pace, not in a burst', () => {
		const a = allowance(1);
		const until = a.refuse(0, 3_000, 1, 200);
		expect(a.earliest()).toBe(until);
		a.take(until);
		expect(a.earliest()).toBe(until + a.gapMs);
		expect(a.gapMs).toBe(W / 100);
	});
});

describe('growth', () => {
	it('needs windows used to the full without a refusal', () => {
		const a = allowance(2);
		a.take(0);
		const now = grow(a, 0, 16, false);
		expect(a.value).toBe(100);
		// At its share for recoverSteps windows, then a share of the limit more each window.
		grow(a, now, STEADY_POLICY.recoverSteps + 3);
		expect(a.value).toBeCloseTo(100 + 200 * STEADY_POLICY.probeShare * 3);
		// A refusal in a period: that period adds nothing.
		const b = allowance(1);
		b.take(0);
		b.noteFullUse();
		refuse(b, W / 2, 180);
		b.noteFullUse();
		b.take(W * 1.5);
		expect(b.value).toBe(100);
	});

	it('stays at the starting share for recoverSteps windows, then probes past it by the same step each window, up to the whole limit', () => {
		const a = allowance(2);
		a.take(0);
		const values: number[] = [];
		let now = 0;
		for (let n = 0; n < 20; n++) {
			now = grow(a, now, 1);
			values.push(a.value);
		}
		const { recoverSteps, probeShare } = STEADY_POLICY;
		expect(values.slice(0, recoverSteps)).toEqual(Array(recoverSteps).fill(100));
		const step = 200 * probeShare;
		expect(values[recoverSteps]).toBeCloseTo(100 + step);
		expect(values[recoverSteps + 1] - values[recoverSteps]).toBeCloseTo(step);
		expect(values[19]).toBe(200);
	});

	/** A process refused once, then again a window later with a request refused twice. */
	function refusedTwice(policy: PacePolicy, rate: RateLimit) {
		const a = allowance(1, policy, rate);
		refuse(a, 0, rate.limit);
		const met = a.value;
		refuse(a, rate.windowMs, rate.limit, 2);
		return { a, met, now: rate.windowMs };
	}

	it('after a later refusal, comes back to a little below the level it met within recoverSteps windows, most of the way in the first', () => {
		const { a, met, now: refusedAt } = refusedTwice(STEADY_POLICY, DATA_SOURCE_LIMIT);
		expect(a.value).toBeCloseTo(met * STEADY_POLICY.decrease);
		// The refused period adds nothing; then recoverSteps steps back to 95% of what it met.
		let now = grow(a, refusedAt, 1);
		const back: number[] = [];
		for (let n = 0; n < STEADY_POLICY.recoverSteps; n++) {
			now = grow(a, now, 1);
			back.push(a.value);
		}
		expect(back[back.length - 1]).toBeCloseTo(met * 0.95);
		expect(back[0] - met * 0.7).toBeGreaterThan((met * 0.95 - met * 0.7) / 2);
	});

	it('brings the sends back more slowly than the data sources', () => {
		const share = (policy: PacePolicy, rate: RateLimit, windows: number) => {
			const { a, met, now } = refusedTwice(policy, rate);
			grow(a, now, windows + 1);
			return a.value / met;
		};
		// Two windows after a refusal: data back at 95% of what it met, sends under 75%.
		expect(share(STEADY_POLICY, DATA_SOURCE_LIMIT, 2)).toBeCloseTo(0.95);
		expect(share(CAREFUL_POLICY, COMMUNICATE_LIMIT, 2)).toBeLessThan(0.75);
		// In time, too: the sends' windows are three times as long, and their steps more.
		expect(CAREFUL_POLICY.recoverSteps).toBeGreaterThan(STEADY_POLICY.recoverSteps);
	});

	it('starts its first step a random share of a window early or late, so processes started together do not step together', () => {
		const early = allowance(2, STEADY_POLICY, DATA_SOURCE_LIMIT, () => 0);
		const late = allowance(2, STEADY_POLICY, DATA_SOURCE_LIMIT, () => 0.99);
		for (const a of [early, late]) {
			a.take(0);
			for (let now = 1_000; now <= 10 * W; now += 1_000) {
				a.noteFullUse();
				a.take(now);
			}
		}
		expect(early.value).toBeGreaterThan(late.value);
	});
});
