'use strict';

/**
 * The limits of the platform's public docs, by API area: per user, and AI per app by the plan of
 * its organization (`ai` on the Free plan, `aiPaid` on any other).
 */
const DEFAULT_LIMITS = {
	dataSources: { limit: 200, windowMs: 10_000 },
	communicate: { limit: 20, windowMs: 30_000 },
	logs: { limit: 30, windowMs: 10_000 },
	ai: { limit: 10, windowMs: 60_000 },
	aiPaid: { limit: 100, windowMs: 60_000 },
};

/** A sliding-window limiter per (token, area); `enabled` is the switch tests and the demo flip. */
class RateLimiter {
	constructor(enabled = true, limits = {}) {
		this.enabled = enabled;
		/** @type {Record<string, {limit: number, windowMs: number}>} */
		this.limits = { ...DEFAULT_LIMITS, ...limits };
		/** @type {Map<string, number[]>} */
		this.hits = new Map();
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

	reset() {
		this.hits.clear();
	}
}

module.exports = { RateLimiter, DEFAULT_LIMITS };
