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

/** A value still to look at, and how it was reached (to name the path only when one is found). */
interface Visit {
	value: unknown;
	step?: string | number;
	parent?: Visit;
}

function pathOf(visit: Visit): string {
	const steps: Array<string | number> = [];
	for (let at: Visit | undefined = visit; at?.step !== undefined; at = at.parent) {
		steps.push(at.step);
	}
	let path = '';
	for (const step of steps.reverse()) {
		path += typeof step === 'number' ? `[${step}]` : path ? `.${step}` : step;
	}
	return path;
}

/**
 * The path of the first key in a JSON body that is a prototype-pollution payload for a server
 * that merges it naively: `__proto__`, or `constructor` holding a `prototype`. Undefined when
 * there is none. Other keys, however odd, are ordinary column names.
 *
 * The walk keeps its own list of values still to visit instead of calling itself, so any depth is
 * walked (no depth limit to hide a key behind, no stack to overflow), and each object is visited
 * once even when it is shared: the work grows with the size of the body, never faster.
 */
export function findUnsafeKey(value: unknown): string | undefined {
	const toVisit: Visit[] = [{ value }];
	const seen = new Set<object>();
	while (toVisit.length) {
		const visit = toVisit.pop()!;
		const current = visit.value;
		if (!hasKeys(current) || seen.has(current)) continue;
		seen.add(current);
		const children: Visit[] = [];
		if (Array.isArray(current)) {
			for (let index = 0; index < current.length; index++) {
				children.push({ value: current[index], step: index, parent: visit });
			}
		} else {
			for (const key of Object.keys(current)) {
				const child = current[key];
				const found = { value: child, step: key, parent: visit };
				if (key === '__proto__') return pathOf(found);
				if (key === 'constructor' && hasKeys(child) && 'prototype' in child) return pathOf(found);
				children.push(found);
			}
		}
		// Last in, first out: pushed in reverse, the first child is looked at first.
		for (let index = children.length - 1; index >= 0; index--) toVisit.push(children[index]);
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
		if (!mayHoldUnsafeKey(value)) continue;
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
