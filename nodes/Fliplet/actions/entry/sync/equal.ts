/** Structural equality of JSON values (key order of objects does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	if (Array.isArray(a)) {
		const other = b as unknown[];
		// JSON writes an undefined array element as null.
		const element = (value: unknown) => (value === undefined ? null : value);
		return (
			a.length === other.length &&
			a.every((value, index) => jsonEqual(element(value), element(other[index])))
		);
	}
	const left = a as Record<string, unknown>;
	const right = b as Record<string, unknown>;
	const leftKeys = Object.keys(left).filter((key) => left[key] !== undefined);
	const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined);
	if (leftKeys.length !== rightKeys.length) return false;
	return leftKeys.every((key) => key in right && jsonEqual(left[key], right[key]));
}
