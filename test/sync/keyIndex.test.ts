// The key index of Sync's diff: checked against a Map on keys that crowd the table.
import { KeyIndex } from '../../nodes/Fliplet/actions/entry/sync/keyIndex';

describe('Sync key index', () => {
	it.each([1, 7, 5000])('finds the first row of each of %i keys, as a Map does', (count) => {
		// Every key twice, some only differing in case or one character, plus rows without a key.
		const keys: Array<string | undefined> = [];
		for (let n = 0; n < count; n++) keys.push(`k${n}`, n % 3 ? `K${n}` : undefined, `k${n}`);
		const index = new KeyIndex(keys, keys.length);
		const expected = new Map<string, number>();
		keys.forEach((key, row) => {
			if (key === undefined) return;
			if (!expected.has(key)) expected.set(key, row);
			expect(index.add(row)).toBe(expected.get(key));
		});
		for (const [key, row] of expected) expect(index.get(key)).toBe(row);
		expect(index.size).toBe(expected.size);
		expect(index.get('absent')).toBeUndefined();
		expect(index.get(`k${count}`)).toBeUndefined();
	});

	it('finds every key of the smallest table filled to its limit', () => {
		// 8 keys in 16 slots: the table is half full, as full as it gets.
		const keys = Array.from({ length: 8 }, (_, n) => `row ${n}`);
		const index = new KeyIndex(keys, 8);
		keys.forEach((_, row) => expect(index.add(row)).toBe(row));
		keys.forEach((key, row) => expect(index.get(key)).toBe(row));
		expect(index.get('row 8')).toBeUndefined();
	});
});
