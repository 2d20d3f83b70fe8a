/**
 * n8n-workflow with its `sleep` shortened WAIT_DIVISOR times, for tests that run hundreds of
 * schedules whose order of events matters, not their durations (a transport's backoff before a
 * retry, a 429's wait). Used as a module factory, before anything loads n8n-workflow:
 *
 *   jest.mock('n8n-workflow', () =>
 *     require('../harness/fastWaits').withFastWaits(jest.requireActual('n8n-workflow')),
 *   );
 *
 * It imports nothing, so the factory does not load n8n-workflow through it.
 */
export const WAIT_DIVISOR = 50;

type Wait = (ms: number, ...rest: unknown[]) => Promise<void>;

/** The wait, shortened; what else it takes (an abort signal) is passed on unchanged. */
const shortened =
	(wait: Wait): Wait =>
	async (ms, ...rest) =>
		await wait(Math.ceil(ms / WAIT_DIVISOR), ...rest);

export function withFastWaits<T extends { sleep: Wait; sleepWithAbort?: Wait }>(actual: T): T {
	return {
		...actual,
		sleep: shortened(actual.sleep),
		...(actual.sleepWithAbort ? { sleepWithAbort: shortened(actual.sleepWithAbort) } : {}),
	};
}
