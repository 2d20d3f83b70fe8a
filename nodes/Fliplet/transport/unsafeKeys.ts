const MAX_DEPTH = 64;

/** Objects and arrays: both can hide a key deeper down. */
const hasKeys = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null;

/**
 * The path of the first key in a JSON body that is a prototype-pollution payload for a server
 * that merges it naively: `__proto__`, or `constructor` holding a `prototype`. Undefined when
 * there is none. Other keys, however odd, are ordinary column names.
 */
export function findUnsafeKey(value: unknown, path = '', depth = 0): string | undefined {
	if (!hasKeys(value) || depth > MAX_DEPTH) return undefined;
	if (Array.isArray(value)) {
		for (let index = 0; index < value.length; index++) {
			const found = findUnsafeKey(value[index], `${path}[${index}]`, depth + 1);
			if (found !== undefined) return found;
		}
		return undefined;
	}
	for (const key of Object.keys(value)) {
		const child = value[key];
		const childPath = path ? `${path}.${key}` : key;
		if (key === '__proto__') return childPath;
		if (key === 'constructor' && hasKeys(child) && 'prototype' in child) return childPath;
		const found = findUnsafeKey(child, childPath, depth + 1);
		if (found !== undefined) return found;
	}
	return undefined;
}
