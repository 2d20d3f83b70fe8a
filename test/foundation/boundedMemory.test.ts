import { rememberBounded } from '../../nodes/Fliplet/helpers/boundedMemory';

// The per-process memories that only spare requests (the pickers' search lists, the key-column
// witnesses, the AI apps' organizations) stay bounded through one helper.

describe('a bounded memory', () => {
	it('holds at most its bound, forgetting the oldest key first', () => {
		const memory = new Map<string, number>();
		for (let n = 1; n <= 5; n++) rememberBounded(memory, `k${n}`, n, 3);
		expect([...memory.keys()]).toEqual(['k3', 'k4', 'k5']);
	});

	it('a key stored again becomes the newest, with its new value, and is not the one forgotten', () => {
		const memory = new Map<string, number>();
		for (let n = 1; n <= 3; n++) rememberBounded(memory, `k${n}`, n, 3);
		rememberBounded(memory, 'k1', 10, 3);
		rememberBounded(memory, 'k4', 4, 3);
		expect([...memory.entries()]).toEqual([
			['k3', 3],
			['k1', 10],
			['k4', 4],
		]);
	});
});
