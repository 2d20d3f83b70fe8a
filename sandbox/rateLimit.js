'use strict';

/**
 * The limits of the platform's public docs, by API area: per user, and AI per app (or per
 * organization: see `state.aiLimitScope` in routes/ai.js) by the plan of its organization (`ai` on
 * the Free plan, `aiPaid` on any other).
 */
const DEFAULT_LIMITS = {
	dataSources: { limit: 200, windowMs: 10_000 },
	communicate: { limit: 20, windowMs: 30_000 },
	logs: { limit: 30, windowMs: 10_000 },
	ai: { limit: 10, windowMs: 60_000 },
	aiPaid: { limit: 100, windowMs: 60_000 },
};

/**
 * The AI docs' caps a day, for the whole organization: 100 requests on the Free plan, 10,000 on
 * Enterprise, Private and Private+ (1,000 on Public, which the sandbox's one paid plan does not
 * tell apart). A day is a UTC calendar day: its refusals name the next UTC midnight.
 */
const DEFAULT_DAILY_CAPS = { ai: 100, aiPaid: 10_000 };

const DAY_MS = 24 * 3600_000;

/** A sliding-window limiter per (token, area); `enabled` is the switch tests and the demo flip. */
class RateLimiter {
	constructor(enabled = true, limits = {}, dailyCaps = {}) {
		this.enabled = enabled;
		/** @type {Record<string, {limit: number, windowMs: number}>} */
		this.limits = { ...DEFAULT_LIMITS, ...limits };
		/** @type {Record<string, number>} requests a day per organization, by area */
		this.dailyCaps = { ...DEFAULT_DAILY_CAPS, ...dailyCaps };
		/** @type {Map<string, number[]>} */
		this.hits = new Map();
		/** @type {Map<string, number>} requests served per area, organization and day */
		this.daily = new Map();
	}

	/**
	 * Records a request; returns null when allowed, or the date the next one will be.
	 * @param {string} key the token
	 * @param {string | undefined} area
	 * @param {number} now
	 */
	check(key, area, now) {
		if (!this.enabled || !area || !this.limits[area]) return null;
		const { limit, windowMs } = this.limits[area];
		const id = `${area}:${key}`;
		const recent = (this.hits.get(id) ?? []).filter((at) => at > now - windowMs);
		if (recent.length >= limit) {
			this.hits.set(id, recent);
			return new Date(recent[0] + windowMs);
		}
		recent.push(now);
		this.hits.set(id, recent);
		return null;
	}

	/**
	 * The area's cap a day for `organization`: the next UTC midnight once the day's requests reached
	 * it, else null. Count the served ones with `countDay`.
	 * @param {string} organization
	 * @param {string | undefined} area
	 * @param {number} now
	 */
	dayCapReached(organization, area, now) {
		const cap = area ? this.dailyCaps[area] : undefined;
		if (!this.enabled || cap === undefined) return null;
		const day = Math.floor(now / DAY_MS);
		return (this.daily.get(`${area}:${organization}:${day}`) ?? 0) >= cap
			? new Date((day + 1) * DAY_MS)
			: null;
	}

	/** Counts a served request against the organization's cap of the day. */
	countDay(organization, area, now) {
		if (!this.enabled || !area || this.dailyCaps[area] === undefined) return;
		const id = `${area}:${organization}:${Math.floor(now / DAY_MS)}`;
		this.daily.set(id, (this.daily.get(id) ?? 0) + 1);
	}

	reset() {
		this.hits.clear();
		this.daily.clear();
	}
}

module.exports = { RateLimiter, DEFAULT_LIMITS, DEFAULT_DAILY_CAPS };
