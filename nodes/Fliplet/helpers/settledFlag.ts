/**
 * A flag that turns true once the promise settles, either way, for code that must know whether an
 * answer is in without waiting for it. Watching also handles a rejection: a promise awaited later
 * still sees it, one dropped on the way concerns no one.
 */
export function settledFlag(promise: Promise<unknown>): { settled: boolean } {
	const flag = { settled: false };
	const settle = () => {
		flag.settled = true;
	};
	promise.then(settle, settle);
	return flag;
}
