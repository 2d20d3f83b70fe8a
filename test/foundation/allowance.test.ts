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

describe('a refusal', () => {
	it('the first shows another process: no more than an even share of two, nor than the requests the process had in the window', () => {
		const busy = allowance(1);
		busy.refuse(0, 0, 1, 180);
		expect(busy.value).toBe(100);
		// Four processes that each started at the whole limit: a quarter each, at once.
		const quarter = allowance(1);
		quarter.refuse(0, 0, 1, 50);
		expect(quarter.value).toBe(70);
		// One that had just started is not cut below one more decrease of the even share.
		const late = allowance(1);
		late.refuse(0, 0, 1, 3);
		expect(late.value).toBe(70);
		const sends = allowance(1, CAREFUL_POLICY, COMMUNICATE_LIMIT);
		sends.refuse(0, 0, 1, 20);
		expect(sends.value).toBe(10);
	});

	it('later ones multiply it by the decrease of the policy: the sends give way harder', () => {
		const data = allowance(2);
		data.refuse(0, 0, 1, 100);
		expect(data.value).toBe(70);
		data.refuse(W, W, 1, 70);
		// Below an even share it gives way less: halfway between the decrease and nothing.
		expect(data.value).toBeCloseTo(70 * 0.85);

		const sends = allowance(2, CAREFUL_POLICY, COMMUNICATE_LIMIT);
		sends.refuse(0, 0, 1, 10);
		expect(sends.value).toBe(5);
		expect(CAREFUL_POLICY.decrease).toBeLessThan(STEADY_POLICY.decrease);
	});

	it('the refusals of requests sent together shrink it once', () => {
		const a = allowance(2);
		a.refuse(0, 0, 1, 100);
		a.refuse(W / 2 - 1, W / 2, 1, 100);
		expect(a.value).toBe(70);
		a.refuse(W / 2, W / 2, 1, 70);
		expect(a.value).toBeCloseTo(59.5);
	});

	it('never shrinks it below the floor', () => {
		const a = allowance(1000);
		for (let n = 0; n < 5; n++) a.refuse(n * W, n * W, 1, 4);
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
		// At its share, flat for recoverSteps windows, then past it: 12 windows reach +32.
		grow(a, now, 12);
		expect(a.value).toBeCloseTo(100 + 200 * 0.02 * 8);
		// A refusal in a period: that period adds nothing.
		const b = allowance(2);
		b.take(0);
		b.noteFullUse();
		b.refuse(W / 2, W / 2, 1, 100);
		b.noteFullUse();
		b.take(W * 1.5);
		expect(b.value).toBe(70);
	});

	it('stays at the starting share for recoverSteps windows, then probes past it, faster the longer nothing is refused, up to the whole limit', () => {
		const a = allowance(2);
		a.take(0);
		const values: number[] = [];
		let now = 0;
		for (let n = 0; n < 20; n++) {
			now = grow(a, now, 1);
			values.push(a.value);
		}
		expect(values.slice(0, 4)).toEqual([100, 100, 100, 100]);
		// +2% of the limit by twice recoverSteps, eight times as much by three times.
		expect(values[7]).toBeCloseTo(104);
		expect(values[11]).toBeCloseTo(132);
		expect(values[19]).toBe(200);
		const steps = values.slice(4, 15).map((value, n) => value - values[n + 3]);
		for (let n = 1; n < steps.length; n++) expect(steps[n]).toBeGreaterThan(steps[n - 1]);
	});

	it('after a later refusal, comes back to a little below the level it met within recoverSteps windows', () => {
		const a = allowance(1);
		a.refuse(0, 0, 1, 200);
		// The first refusal leaves an even share of two; growth probes past it after a while.
		let now = grow(a, 0, 12);
		const met = a.value;
		expect(met).toBeGreaterThan(100);
		a.refuse(now, now, 1, met);
		expect(a.value).toBeCloseTo(met * 0.7);
		// The refused period adds nothing; then recoverSteps steps back to 95% of what it met.
		now = grow(a, now, 1);
		const back: number[] = [];
		for (let n = 0; n < STEADY_POLICY.recoverSteps; n++) {
			now = grow(a, now, 1);
			back.push(a.value);
		}
		expect(back[3]).toBeCloseTo(met * 0.95);
		for (let n = 1; n < 4; n++) expect(back[n]).toBeGreaterThan(back[n - 1]);
		// Concave: most of the way back in the first step.
		expect(back[0] - met * 0.7).toBeGreaterThan((met * 0.95 - met * 0.7) / 2);
	});

	it('brings the sends back more slowly than the data sources', () => {
		const share = (policy: PacePolicy, rate: RateLimit, windows: number) => {
			const a = allowance(1, policy, rate);
			a.refuse(0, 0, 1, rate.limit);
			let now = grow(a, 0, 2 * policy.recoverSteps);
			const met = a.value;
			a.refuse(now, now, 1, met);
			now = grow(a, now, windows + 1);
			return a.value / met;
		};
		// Two windows after a refusal: data back above 90% of what it met, sends under 75%.
		expect(share(STEADY_POLICY, DATA_SOURCE_LIMIT, 2)).toBeGreaterThan(0.9);
		expect(share(CAREFUL_POLICY, COMMUNICATE_LIMIT, 2)).toBeLessThan(0.75);
		// In time, too: the sends' windows are three times as long, and their steps twice as many.
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

describe('the even pace', () => {
	/** When each of `count` requests may go, sent as soon as it may. */
	function starts(a: Allowance, count: number): number[] {
		const times: number[] = [];
		for (let n = 0; n < count; n++) {
			const at = Math.max(times[times.length - 1] ?? 0, a.earliest());
			a.take(at);
			times.push(at);
		}
		return times;
	}

	it('a process alone sends a quarter of its allowance at once, then one request every window ÷ allowance', () => {
		const times = starts(allowance(1), 60);
		expect(times.slice(0, 50)).toEqual(Array(50).fill(0));
		expect(times.slice(50, 53)).toEqual([50, 100, 150]);
	});

	it('a process alone sends its whole AI allowance at once', () => {
		const ai = starts(allowance(1, AI_POLICY, { limit: 10, windowMs: 60_000 }), 10);
		expect(ai).toEqual(Array(10).fill(0));
	});

	it('once it shares the token, a tenth (data sources), a quarter (sends), a half (AI)', () => {
		const data = starts(allowance(2), 12);
		expect(data.slice(0, 10)).toEqual(Array(10).fill(0));
		expect(data.slice(10)).toEqual([100, 200]);
		const sends = starts(allowance(2, CAREFUL_POLICY, COMMUNICATE_LIMIT), 4);
		expect(sends).toEqual([0, 0, 0, 3_000]);
		const ai = starts(allowance(2, AI_POLICY, { limit: 10, windowMs: 60_000 }), 4);
		expect(ai).toEqual([0, 0, 0, 12_000]);
	});

	it('a refusal makes a process alone space its requests as one that shares the token', () => {
		const a = allowance(1);
		const until = a.refuse(0, 0, 1, 20);
		const gap = W / 70;
		expect(a.gapMs).toBeCloseTo(gap);
		const [first, second, third] = starts(a, 3);
		expect(first).toBe(until);
		expect(second).toBeCloseTo(until + gap);
		expect(third).toBeCloseTo(until + 2 * gap);
	});
});
