import type { RateLimit } from './rateLimits';

/**
 * How one n8n process shares a limit with other processes on the same token, which it cannot see:
 * it learns their use only from the platform's refusals (429), as TCP shares a link. Until then it
 * sends full windows of its share by the credential's count (alone: the whole limit). A refusal
 * shrinks the process's allowance (multiplicative decrease) and makes it space its requests; each
 * window then used to the full without a refusal grows it: back to a level a little below the one
 * the refusal met within a few windows, then past it by a share of the limit each window, up to the
 * whole limit. A probe past a level known to fit that meets a refusal goes back to that level.
 */
export interface PacePolicy {
	/**
	 * A refusal multiplies the allowance by this (at most once in `decreaseGapWindows`, unless a
	 * request is refused again); at or below the even share, by halfway between this and 1.
	 */
	decrease: number;
	/**
	 * Windows after a decrease in which further refusals shrink nothing: those of requests already
	 * on their way, and those the platform's window, which still counts what the process sent at
	 * its former allowance, brings until it has moved on.
	 */
	decreaseGapWindows: number;
	/** Growth steps after a decrease to be back at the plateau. */
	recoverSteps: number;
	/**
	 * The level growth recovers to, as a share of the allowance the refusal met: that allowance was
	 * already too much, so the plateau sits a little below it.
	 */
	plateau: number;
	/**
	 * Past the plateau, each growth step adds this share of the limit: the same for every process,
	 * so that the processes with more allowance, refused more often, give way to the others.
	 */
	probeShare: number;
	/** Windows between growth steps; a step is taken only if they were used to the full, unrefused. */
	growEveryWindows: number;
	/**
	 * Share of the allowance that may go out at once after a quiet spell once the process spaces
	 * its requests (see Allowance.fullWindows); the rest goes evenly, so several processes'
	 * requests interleave instead of meeting in bursts when a window frees.
	 */
	burstShare: number;
	/** The allowance never shrinks below this share of the limit (at least one request). */
	floorShare: number;
	/**
	 * The widest random delay added to the time a refusal names, as a share of the window: after a
	 * request's first refusal, and after its second and later ones in a row.
	 */
	spreadShare: { first: number; again: number };
	/**
	 * Sending full windows, how long (a share of the window) a place stays free after its window
	 * before this process takes it again: at least the first spread, so that another process's
	 * request refused once, which comes back for the place its refusal named, finds it free.
	 */
	retakeLagShare: number;
}

/**
 * Data sources and audit logs: a refusal costs only time, so the limit is used closely and a
 * process left alone finds it again within a few windows (runs are often only a few windows long).
 */
export const STEADY_POLICY: PacePolicy = {
	decrease: 0.7,
	decreaseGapWindows: 1,
	recoverSteps: 2,
	plateau: 0.95,
	probeShare: 0.05,
	growEveryWindows: 1,
	burstShare: 0.1,
	floorShare: 0.02,
	spreadShare: { first: 0.02, again: 0.1 },
	retakeLagShare: 0.03,
};

/**
 * Email and SMS: refusals put the account at risk ("improper use leads to account suspension
 * flagging"), so a refusal halves the allowance and it grows back far more slowly: one request a
 * window past the plateau, after eight windows.
 */
export const CAREFUL_POLICY: PacePolicy = {
	decrease: 0.5,
	decreaseGapWindows: 1,
	recoverSteps: 8,
	plateau: 0.9,
	probeShare: 0.05,
	growEveryWindows: 1,
	burstShare: 0.25,
	floorShare: 0.05,
	spreadShare: { first: 0.05, again: 0.2 },
	retakeLagShare: 0.06,
};

/**
 * AI: requests are slow and few (10 a minute on the Free plan), and an agent's steps come one after
 * another, so a larger share may go out at once when the process spaces its requests.
 */
export const AI_POLICY: PacePolicy = {
	...STEADY_POLICY,
	burstShare: 0.5,
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
	/** When the last refusal came. */
	private refusedAt = -Infinity;
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
	/** The process's share of the limit by the credential's count of processes. */
	private startShare: number;
	/** Whether a refusal came yet. */
	private refusedOnce = false;
	/**
	 * The largest allowance known to fit beside the other processes: the share the credential's
	 * count gives, or one a growth period used to the full without a refusal (0: none known since
	 * the last decrease below it).
	 */
	private fits: number;

	constructor(
		readonly rate: RateLimit,
		readonly policy: PacePolicy,
		private processes: number,
		private readonly random: () => number = Math.random,
	) {
		this.startShare = this.shareOf(processes);
		this.value = this.startShare;
		this.fits = processes > 1 ? this.startShare : 0;
		// As if a refusal had just left it at its share: it stays there for `recoverSteps` steps
		// before it probes past it.
		this.met = this.value / policy.plateau;
		this.low = this.value;
		this.steps = 0;
	}

	/** The credential now counts `processes`: more than before lowers the allowance to the new share. */
	share(processes: number): void {
		if (processes === this.processes) return;
		this.startShare = this.shareOf(processes);
		if (processes > this.processes) {
			this.value = Math.min(this.value, this.startShare);
			this.fits = Math.min(this.fits, this.startShare);
		}
		if (processes > 1) this.fits = Math.max(this.fits, Math.min(this.value, this.startShare));
		this.processes = processes;
	}

	private shareOf(processes: number): number {
		return Math.max(this.floor, this.rate.limit / processes);
	}

	/**
	 * Whether the process sends full windows: its whole allowance at once, and each place again as
	 * soon as the window frees it (after the retake lag). So it does while nothing was refused and
	 * it holds no more than its share by the credential's count (a process counted alone: the
	 * whole limit), which the processes' shares together never pass. Past its share (probing for
	 * room others leave) or once refused (others take more than the count says), it spaces its
	 * requests evenly after a small burst, so that processes meet one request at a time rather
	 * than a burst.
	 */
	get fullWindows(): boolean {
		return !this.refusedOnce && Math.floor(this.value) <= this.startShare;
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
		const burst = Math.max(1, Math.ceil(this.value * this.policy.burstShare));
		return (burst - 1) * this.gapMs;
	}

	/**
	 * Full windows: how long after its window a place stays free before this process takes it
	 * again, so that another process's refused request, which comes back for the place its refusal
	 * named, finds it free (a process alone that was never refused cannot know of the others, and
	 * would otherwise take every place back the moment it frees). Spacing: 0.
	 */
	get retakeLagMs(): number {
		return this.fullWindows ? this.policy.retakeLagShare * this.rate.windowMs : 0;
	}

	/** When the next request may go out at the earliest (full windows: whenever a place is free). */
	earliest(): number {
		return this.fullWindows ? -Infinity : this.nextAt - this.slackMs;
	}

	/** The window or the even pace made a request wait: the allowance is in full use. */
	noteFullUse(): void {
		this.usedFully = true;
	}

	/** A request goes out at `now`. */
	take(now: number): void {
		// Full windows keep no even schedule: spacing, once it starts, starts from now.
		const from = this.fullWindows ? now : Math.max(this.nextAt, now);
		this.grow(now);
		this.nextAt = from + this.gapMs;
	}

	private grow(now: number): void {
		if (this.periodStart === undefined) this.startPeriod(now, true);
		if (now - this.periodStart! < this.periodMs) return;
		if (this.usedFully && !this.refused) {
			// A window used to the full without a refusal: what it allowed fits beside the others.
			this.fits = Math.max(this.fits, this.value);
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

	/**
	 * The allowance `steps` growth steps after the last decrease: back to the plateau (a little
	 * below what the refusal met) in `recoverSteps` steps, most of the way in the first ones; then
	 * a share of the limit more each step.
	 */
	private curve(steps: number): number {
		const { plateau, recoverSteps, probeShare } = this.policy;
		const level = this.met * plateau;
		if (steps > recoverSteps) return level + this.rate.limit * probeShare * (steps - recoverSteps);
		return level - (level - this.low) * (1 - steps / recoverSteps) ** 3;
	}

	/**
	 * The platform refused a request at `now`, its `refusalsInARow`-th refusal in a row; `share`:
	 * how many of the requests the platform counted were this process's (see RequestWindow).
	 * Shrinks the allowance (once a window for the requests sent together, and again for a request
	 * refused again), and returns when to go on: `reopensAt` (the time the platform named, or
	 * `now`) plus a random spread, wider for a request refused before, so that the processes the
	 * platform refused do not all come back at the same instant. Nothing goes out before then.
	 */
	refuse(now: number, reopensAt: number, refusalsInARow: number, share = Infinity): number {
		const { decreaseGapWindows, spreadShare } = this.policy;
		const { windowMs } = this.rate;
		const firstInAWindow = now - this.refusedAt >= windowMs;
		this.refusedAt = now;
		const promised = this.processes > 1 && this.value <= this.startShare;
		if (refusalsInARow === 1 && firstInAWindow && promised) {
			// Within the share the credential's count gives it, a lone refusal is another process
			// probing past its own: that one gives way when refused, so this one holds its ground and
			// keeps growing back to its share (a second refusal in the window, or of the same
			// request, shrinks it).
		} else {
			if (refusalsInARow > 1 || now - this.decreasedAt >= decreaseGapWindows * windowMs) {
				this.decrease(share, refusalsInARow > 1);
				this.decreasedAt = now;
			}
			this.startPeriod(now);
			this.refused = true;
		}
		this.refusedOnce = true;
		const widest = (refusalsInARow > 1 ? spreadShare.again : spreadShare.first) * windowMs;
		const until = Math.max(now, reopensAt) + Math.round(this.random() * widest);
		// After the hold, requests go on at the even pace, not in a burst.
		this.nextAt = Math.max(this.nextAt, until + this.slackMs);
		return until;
	}

	/** `again`: a request was refused twice in a row, so the others still have too little room. */
	private decrease(share: number, again: boolean): void {
		const { decrease } = this.policy;
		if (this.fits > 0 && this.value > this.fits) {
			// A probe past a level known to fit: back to that level; growth probes past it later.
			this.met = this.value;
			this.value = this.fits;
		} else {
			// A refusal shows another process on the token: the even share is of two at least. At or
			// below it, a process gives way less, unless a request was refused again.
			const even = this.rate.limit / Math.max(2, this.processes);
			const gentle = !again && this.value <= even;
			const cut = this.value * (gentle ? (1 + decrease) / 2 : decrease);
			// The first refusal leaves no more than that share, nor than the process's share of the
			// requests the platform counted (what the others left it: four processes that each
			// started at the whole limit learn their quarter at once); growth comes back to it, not to
			// the whole limit nobody had room for. Later ones: growth comes back to what they met.
			const learned = Math.min(even, Math.max(share, 1));
			this.met = this.refusedOnce ? this.value : Math.min(this.value, learned);
			this.value = Math.max(this.floor, this.refusedOnce ? cut : Math.min(cut, learned));
			// Nothing above is known to fit any more, save the share the credential's count gives.
			this.fits = this.processes > 1 ? this.startShare : 0;
		}
		this.low = this.value;
		this.steps = 0;
	}
}
