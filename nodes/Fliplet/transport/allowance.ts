import type { RateLimit } from './rateLimits';

/**
 * How one n8n process shares a limit with other processes on the same token, which it cannot see:
 * it learns their use only from the platform's refusals (429), as TCP shares a link. A refusal
 * shrinks the process's allowance (multiplicative decrease); each window then used to the full
 * without a refusal grows it, as TCP CUBIC does: quickly back to a level a little below the one the
 * refusal met, slowly past it, and faster the longer nothing is refused, up to the whole limit. So
 * the allowance stays long near the room the other processes leave, yet finds the whole limit again
 * once they are gone.
 */
export interface PacePolicy {
	/** A refusal multiplies the allowance by this (at most once in `decreaseGapWindows`). */
	decrease: number;
	/** Windows after a decrease in which further refusals (of requests already sent) shrink nothing. */
	decreaseGapWindows: number;
	/** Growth steps after a decrease to be back at the plateau. */
	recoverSteps: number;
	/**
	 * The level growth recovers to, as a share of the allowance the refusal met: that allowance was
	 * already too much, so the plateau sits a little below it.
	 */
	plateau: number;
	/**
	 * Past the plateau, growth adds this share of the limit by `recoverSteps` more steps, eight
	 * times as much by twice as many (a cubic): the same for every process, so that the processes
	 * with more allowance, refused more often, give way to the others.
	 */
	probeShare: number;
	/** Windows between growth steps; a step is taken only if they were used to the full, unrefused. */
	growEveryWindows: number;
	/**
	 * Share of the allowance that may go out at once after a quiet spell; the rest is spaced evenly,
	 * so several processes' requests interleave instead of meeting in bursts. `sharing` once the
	 * process knows it shares the token (the credential counts more than one process, or a refusal
	 * came), `alone` before: a larger burst for small runs, yet small enough that a busy process
	 * sends evenly rather than a whole window at the instant its window frees (which would leave a
	 * process it shares the token with no place), and that four processes starting together fit.
	 */
	burstShare: { alone: number; sharing: number };
	/** The allowance never shrinks below this share of the limit (at least one request). */
	floorShare: number;
	/**
	 * The widest random delay added to the time a refusal names, as a share of the window: after a
	 * request's first refusal, and after its second and later ones in a row.
	 */
	spreadShare: { first: number; again: number };
}

/** Data sources and audit logs: a refusal costs only time, so the limit is used closely. */
export const STEADY_POLICY: PacePolicy = {
	decrease: 0.7,
	decreaseGapWindows: 0.5,
	recoverSteps: 4,
	plateau: 0.95,
	probeShare: 0.02,
	growEveryWindows: 1,
	burstShare: { alone: 0.25, sharing: 0.1 },
	floorShare: 0.02,
	spreadShare: { first: 0.02, again: 0.1 },
};

/**
 * Email and SMS: refusals put the account at risk ("improper use leads to account suspension
 * flagging"), so a refusal halves the allowance and it grows back far more slowly.
 */
export const CAREFUL_POLICY: PacePolicy = {
	decrease: 0.5,
	decreaseGapWindows: 0.5,
	recoverSteps: 8,
	plateau: 0.9,
	probeShare: 0.05,
	growEveryWindows: 1,
	burstShare: { alone: 0.25, sharing: 0.25 },
	floorShare: 0.05,
	spreadShare: { first: 0.05, again: 0.2 },
};

/**
 * AI: requests are slow and few (10 a minute on the Free plan), and an agent's steps come one after
 * another, so a larger share may go out at once: a process with no sign of others sends its whole
 * allowance (7 items of Generate Text would otherwise wait 12 s for places the limit has free).
 */
export const AI_POLICY: PacePolicy = {
	...STEADY_POLICY,
	burstShare: { alone: 1, sharing: 0.5 },
};

/** The credential's count of n8n processes on the token (1 when unset or not a whole number above 1). */
export function processesOf(processes: unknown): number {
	const count = Math.floor(Number(processes));
	return Number.isFinite(count) && count > 1 ? Math.min(count, 1000) : 1;
}

/**
 * The requests this process allows itself in a window of its limit, and when it may send the
 * next one. Time is passed in (milliseconds), so the arithmetic is plain.
 */
export class Allowance {
	/** Requests allowed in a window (fractional: the gap between requests follows it exactly). */
	value: number;
	/** When the last decrease was made. */
	private decreasedAt = -Infinity;
	/** The allowance the last refusal met (at first: as if the starting share were its plateau). */
	private met: number;
	/** The allowance right after the last decrease. */
	private low: number;
	/** Growth steps taken since the last decrease. */
	private steps: number;
	/**
	 * The growth period under way: when it started, how long it lasts (the first one a random
	 * share of a window more or less, so that processes started together do not grow, and meet
	 * their refusals, in step; later ones start at each refusal), whether it was used to the full
	 * or refused.
	 */
	private periodStart: number | undefined;
	private periodMs = 0;
	private usedFully = false;
	private refused = false;
	/** When the next request may go out, spaced evenly (before the burst's slack). */
	private nextAt = 0;
	/** Whether other processes use the token: the credential says so, or the platform refused. */
	private sharing: boolean;
	/** Whether a refusal came yet. */
	private refusedOnce = false;

	constructor(
		readonly rate: RateLimit,
		readonly policy: PacePolicy,
		private processes: number,
		private readonly random: () => number = Math.random,
	) {
		this.value = Math.max(this.floor, rate.limit / processes);
		this.sharing = processes > 1;
		// As if a refusal had just left it at its share: it stays there for `recoverSteps` steps
		// before it probes past it.
		this.met = this.value / policy.plateau;
		this.low = this.value;
		this.steps = 0;
	}

	/** The credential now counts `processes`: more than before lowers the allowance to the new share. */
	share(processes: number): void {
		if (processes > this.processes) {
			this.value = Math.max(this.floor, Math.min(this.value, this.rate.limit / processes));
		}
		this.processes = processes;
		this.sharing ||= processes > 1;
	}

	private get floor(): number {
		return Math.max(1, this.rate.limit * this.policy.floorShare);
	}

	/** Whole places in the window. */
	get places(): number {
		return Math.max(1, Math.floor(this.value));
	}

	/** Milliseconds between requests at the allowance's even pace. */
	get gapMs(): number {
		return this.rate.windowMs / this.value;
	}

	/** How far before its even time a request may go: the room of a burst after a quiet spell. */
	private get slackMs(): number {
		const share = this.policy.burstShare[this.sharing ? 'sharing' : 'alone'];
		const burst = Math.max(1, Math.ceil(this.value * share));
		return (burst - 1) * this.gapMs;
	}

	/** When the next request may go out at the earliest. */
	earliest(): number {
		return this.nextAt - this.slackMs;
	}

	/** The window or the even pace made a request wait: the allowance is in full use. */
	noteFullUse(): void {
		this.usedFully = true;
	}

	/** A request goes out at `now`. */
	take(now: number): void {
		this.grow(now);
		this.nextAt = Math.max(this.nextAt, now) + this.gapMs;
	}

	private grow(now: number): void {
		if (this.periodStart === undefined) this.startPeriod(now, true);
		if (now - this.periodStart! < this.periodMs) return;
		if (this.usedFully && !this.refused) {
			this.steps++;
			this.value = Math.min(this.rate.limit, Math.max(this.value, this.curve(this.steps)));
		}
		this.startPeriod(now);
	}

	private startPeriod(now: number, randomLength = false): void {
		this.periodStart = now;
		const length = this.policy.growEveryWindows * this.rate.windowMs;
		this.periodMs = randomLength ? length * (0.5 + this.random()) : length;
		this.usedFully = false;
		this.refused = false;
	}

	/** The allowance `steps` growth steps after the last decrease. */
	private curve(steps: number): number {
		const { plateau, recoverSteps, probeShare } = this.policy;
		const level = this.met * plateau;
		const t = steps / recoverSteps - 1;
		return t <= 0
			? level - (level - this.low) * (-t) ** 3
			: level + this.rate.limit * probeShare * t ** 3;
	}

	/**
	 * The platform refused a request at `now`, with `used` of this process's requests in its
	 * window: shrinks the allowance (once for the requests sent together), and returns when to go
	 * on: `reopensAt` (the time the platform named, or `now`) plus a random spread, wider for a
	 * request refused before, so that the processes the platform refused do not all come back at
	 * the same instant. Nothing goes out before then.
	 */
	refuse(now: number, reopensAt: number, refusalsInARow: number, used: number): number {
		const { decrease, decreaseGapWindows, spreadShare } = this.policy;
		const { windowMs } = this.rate;
		if (now - this.decreasedAt >= decreaseGapWindows * windowMs) {
			// A refusal shows another process on the token: the even share is of two at least. Below
			// it, give way less.
			const even = this.rate.limit / Math.max(2, this.processes);
			const factor = this.value < even ? (1 + decrease) / 2 : decrease;
			const cut = this.value * factor;
			if (!this.refusedOnce) {
				// The first refusal leaves no more than that share, nor than the requests the process
				// had in the window when the limit was met (what the others left it: four processes
				// that each started at the whole limit learn their quarter at once), down to one more
				// decrease. Growth comes back to that, not to the whole limit nobody had room for.
				const left = Math.max(used, even * decrease);
				this.value = Math.max(this.floor, Math.min(cut, even, left));
				this.met = this.value;
			} else {
				// Met lower than last time: others are taking more, so leave them more (CUBIC's fast
				// convergence), which evens out processes of unequal allowances sooner.
				this.met = this.value < this.met ? (this.value * (1 + decrease)) / 2 : this.value;
				this.value = Math.max(this.floor, cut);
			}
			this.low = this.value;
			this.steps = 0;
			this.decreasedAt = now;
		}
		this.refusedOnce = true;
		this.sharing = true;
		this.startPeriod(now);
		this.refused = true;
		const widest = (refusalsInARow > 1 ? spreadShare.again : spreadShare.first) * windowMs;
		const until = Math.max(now, reopensAt) + Math.round(this.random() * widest);
		// After the hold, requests go on at the even pace, not in a burst.
		this.nextAt = Math.max(this.nextAt, until + this.slackMs);
		return until;
	}
}
