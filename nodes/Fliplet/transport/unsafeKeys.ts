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
 * The same look for text from anywhere (a form field's value): such text may spell a key with
 * spaces before its colon or with escapes (`"\u005f_proto__"`), which JSON.stringify never writes.
 */
const UNSAFE_KEY_ANY_SPELLING = /__proto__|constructor|\\u/;

/**
 * The objects and arrays met on the walk, each with the one it was found in and the key or index
 * it was found under: enough to name the path to a key, in three flat lists (a deep body holds
 * millions of them, and one small object each would keep the garbage collector busy).
 */
class Reached {
	readonly values: object[] = [];
	readonly parents: number[] = [];
	readonly steps: Array<string | number> = [];

	add(value: object, parent: number, step: string | number): number {
		this.values.push(value);
		this.parents.push(parent);
		this.steps.push(step);
		return this.values.length - 1;
	}

	/** The path to `step` inside the value at `index`, e.g. `entries[0].data.__proto__`. */
	pathTo(index: number, step: string): string {
		const steps: Array<string | number> = [step];
		for (let at = index; at > 0; at = this.parents[at]) steps.push(this.steps[at]);
		let path = '';
		for (let i = steps.length - 1; i >= 0; i--) {
			const next = steps[i];
			path += typeof next === 'number' ? `[${next}]` : path ? `.${next}` : next;
		}
		return path;
	}
}

/**
 * Whether an object holds only plain values under ordinary keys: then there is nothing to walk.
 * The common case (one row of a Sync, checked 100,000 times) costs no allocation of the walk.
 */
function isFlatAndSafe(value: Record<string, unknown>): boolean {
	if (Array.isArray(value)) return false;
	for (const key in value) {
		if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
		if (key === '__proto__' || key === 'constructor' || hasKeys(value[key])) return false;
	}
	return true;
}

/**
 * The path of the first key in a JSON body that is a prototype-pollution payload for a server
 * that merges it naively: `__proto__`, or `constructor` holding a `prototype`. Undefined when
 * there is none. Other keys, however odd, are ordinary column names.
 *
 * The walk keeps its own list of values still to visit instead of calling itself, so any depth is
 * walked (no depth limit to hide a key behind, no stack to overflow). The value is one JSON text
 * has described (a body already serialized, a form field parsed), so each part is reached once:
 * the walk grows with the length of that text, never faster.
 */
export function findUnsafeKey(value: unknown): string | undefined {
	if (!hasKeys(value) || isFlatAndSafe(value)) return undefined;
	const reached = new Reached();
	const toVisit = [reached.add(value, -1, '')];
	const visitLater = (child: unknown, parent: number, step: string | number) => {
		if (hasKeys(child)) toVisit.push(reached.add(child, parent, step));
	};
	while (toVisit.length) {
		const index = toVisit.pop()!;
		const current = reached.values[index] as Record<string, unknown>;
		// Pushed last to first, so the first child is looked at first.
		if (Array.isArray(current)) {
			for (let i = current.length - 1; i >= 0; i--) visitLater(current[i], index, i);
			continue;
		}
		const keys = Object.keys(current);
		for (const key of keys) {
			const child = current[key];
			if (key === '__proto__') return reached.pathTo(index, key);
			if (key === 'constructor' && hasKeys(child) && 'prototype' in child) {
				return reached.pathTo(index, key);
			}
		}
		for (let i = keys.length - 1; i >= 0; i--) visitLater(current[keys[i]], index, keys[i]);
	}
	return undefined;
}

const NAME_STEPS = /[^.[\]]+/g;

/**
 * The unsafe key in a form field's name, which servers read as a path: `__proto__`, `a.__proto__`
 * and `a[__proto__][b]` all reach the prototype when merged, as does `constructor` followed by
 * `prototype`. Undefined for an ordinary name.
 */
export function unsafeKeyInFieldName(name: string): string | undefined {
	const steps = name.match(NAME_STEPS) ?? [];
	for (let index = 0; index < steps.length; index++) {
		if (steps[index] === '__proto__') return name;
		if (steps[index] === 'constructor' && steps[index + 1] === 'prototype') return name;
	}
	return undefined;
}

/**
 * The first unsafe key of a multipart form: in a field's name, or inside a field's value when the
 * value is JSON (a column holding an object is sent as its JSON text, which a server may parse).
 */
export function findUnsafeFormKey(
	fields: Array<{ name: string; value: string }>,
): string | undefined {
	for (const { name, value } of fields) {
		const inName = unsafeKeyInFieldName(name);
		if (inName !== undefined) return inName;
		if (!UNSAFE_KEY_ANY_SPELLING.test(value)) continue;
		let parsed: unknown;
		try {
			parsed = JSON.parse(value);
		} catch {
			continue;
		}
		const inValue = findUnsafeKey(parsed);
		if (inValue !== undefined) return `${name}.${inValue}`;
	}
	return undefined;
}
