/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The sandbox's entry store keeps entries in id order in shared blocks: checked here against a
// plain list doing the same changes, snapshots included (they must never see later changes).
import { createRequire } from 'module';

const store = createRequire(__filename)('../../sandbox/dataSources/store');

interface Entry {
	id: number;
	data: { n: number };
	dataSourceId: number;
}

const DS = 1;

/** A small deterministic random sequence, so a failure can be replayed. */
function random(seed: number) {
	let state = seed;
	return (below: number) => {
		state = (state * 1103515245 + 12345) % 2 ** 31;
		return state % below;
	};
}

function newState() {
	let nextId = 1;
	const state: any = { now: () => 0 };
	const make = (n: number): Entry => ({ id: nextId++, data: { n }, dataSourceId: DS });
	return { state, make };
}

describe('sandbox entry store', () => {
	it.each([1, 2])('matches a plain list through random changes and snapshots (seed %i)', (seed) => {
		const pick = random(seed);
		const { state, make } = newState();
		let model: Entry[] = [];
		const snapshots: Array<{ snapshot: unknown; expected: Entry[] }> = [];

		for (let step = 0; step < 120; step++) {
			const action = pick(6);
			if (action <= 1 || !model.length) {
				const created = Array.from({ length: 1 + pick(1000) }, (_, n) => make(n));
				store.appendEntries(state, DS, created);
				model = [...model, ...created];
			} else if (action === 2) {
				const replaced = new Map<number, Entry>();
				for (let k = 0; k < 1 + pick(50); k++) {
					const entry = model[pick(model.length)];
					replaced.set(entry.id, { ...entry, data: { n: -step } });
				}
				const gone = new Set([model[pick(model.length)].id]);
				replaced.forEach((_, id) => gone.delete(id));
				store.applyChanges(state, DS, { replaced, gone, keepOthers: true, created: [] });
				model = model
					.filter((entry) => !gone.has(entry.id))
					.map((entry) => replaced.get(entry.id) ?? entry);
			} else if (action === 3) {
				const ids = Array.from({ length: 1 + pick(200) }, () => model[pick(model.length)].id);
				const gone = new Set(ids);
				expect(store.removeEntries(state, DS, ids)).toBe(gone.size);
				model = model.filter((entry) => !gone.has(entry.id));
			} else if (action === 4) {
				snapshots.push({ snapshot: store.snapshotOf(state, DS), expected: model.slice() });
			} else {
				const entry = model[pick(model.length)];
				const changed = { ...entry, data: { n: step } };
				store.replaceEntry(state, DS, changed);
				model = model.map((other) => (other.id === entry.id ? changed : other));
			}

			expect(store.countOf(state, DS)).toBe(model.length);
			const start = pick(model.length + 1);
			const end = start + pick(1500);
			expect(store.pageOf(state, DS, start, end)).toEqual(model.slice(start, end));
			if (model.length) {
				const probe = model[pick(model.length)];
				expect(store.findEntry(state, DS, probe.id)).toBe(probe);
				expect(store.positionAfterId(state, DS, probe.id)).toBe(model.indexOf(probe) + 1);
			}
		}
		expect(store.entriesOf(state, DS)).toEqual(model);
		for (const { snapshot, expected } of snapshots)
			expect(store.snapshotEntries(snapshot)).toEqual(expected);
	});

	it('replaces the whole content, in id order, when a commit keeps nothing else', () => {
		const { state, make } = newState();
		const old = Array.from({ length: 5000 }, (_, n) => make(n));
		store.appendEntries(state, DS, old);
		const kept = { ...old[4000], data: { n: -1 } };
		const created = [make(99)];
		store.applyChanges(state, DS, {
			replaced: new Map([[kept.id, kept]]),
			gone: new Set(),
			keepOthers: false,
			created,
		});
		expect(store.entriesOf(state, DS)).toEqual([kept, ...created]);
		expect(store.findEntry(state, DS, old[0].id)).toBeUndefined();
	});
});
