export interface RateLimit {
	limit: number;
	windowMs: number;
}

/** The documented per-user limit of the data-source API: 200 requests in any 10 seconds. */
export const DATA_SOURCE_LIMIT: RateLimit = { limit: 200, windowMs: 10_000 };
/** Email and SMS, single and batch together: 20 requests in any 30 seconds. */
export const COMMUNICATE_LIMIT: RateLimit = { limit: 20, windowMs: 30_000 };
/** An organization's audit logs: 30 requests in any 10 seconds. */
export const AUDIT_LOG_LIMIT: RateLimit = { limit: 30, windowMs: 10_000 };

/** The AI plans of the credential: the Free plan, or any paid one (Public, Private, Enterprise…). */
export type AiPlan = 'free' | 'paid';

/** AI requests a minute by plan, as the platform's AI docs give them (all four operations). */
export const AI_LIMITS: Record<AiPlan, RateLimit> = {
	free: { limit: 10, windowMs: 60_000 },
	paid: { limit: 100, windowMs: 60_000 },
};

/** The credential's plan; a credential saved before the field existed is on the Free plan's pace. */
export function aiPlanOf(credentials: { aiPlan?: unknown }): AiPlan {
	return credentials.aiPlan === 'paid' ? 'paid' : 'free';
}
