const MAX_DEPTH = 64;

/** Objects and arrays: both can hide a key deeper down. */
const hasKeys = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null;

const UNSAFE_KEY_TEXT = /"(?:__proto__|constructor)":/;

/**
 * Whether a body's JSON text may hold such a key: a cheap look at the text, so a large body is
 * walked key by key (findUnsafeKey) only when it names one of them somewhere.
 */
export function mayHoldUnsafeKey(json: string): boolean {
	return UNSAFE_KEY_TEXT.test(json);
}

/**
 * The path of the first key in a JSON body that is a prototype-pollution payload for a server
 * that merges it naively: `__proto__`, or `constructor` holding a `prototype`. Undefined when
 * there is none. Other keys, however odd, are ordinary column names.
 */
export function findUnsafeKey(value: unknown): string | undefined {
	const steps = unsafeSteps(value, 0);
	if (!steps) return undefined;
	let path = '';
	for (const step of steps.reverse())
		path += typeof step === 'number' ? `[${step}]` : path ? `.${step}` : step;
	return path;
}

/** The steps to the unsafe key, last first (built only when one is found: bodies can be large). */
function unsafeSteps(value: unknown, depth: number): Array<string | number> | undefined {
	if (!hasKeys(value) || depth > MAX_DEPTH) return undefined;
	if (Array.isArray(value)) {
		for (let index = 0; index < value.length; index++) {
			const found = unsafeSteps(value[index], depth + 1);
			if (found) return [...found, index];
		}
		return undefined;
	}
	for (const key of Object.keys(value)) {
		const child = value[key];
		if (key === '__proto__') return [key];
		if (key === 'constructor' && hasKeys(child) && 'prototype' in child) return [key];
		const found = unsafeSteps(child, depth + 1);
		if (found) return [...found, key];
	}
	return undefined;
}
