// The Instant Trigger's memory of the runs it started is bounded: a pure helper, tested alone
// (the calls themselves are tested through n8n's engine in instantTrigger.test.ts).
import {
	freshMemory,
	judgeCall,
	MAX_RUNS_REMEMBERED,
} from '../../nodes/FlipletInstantTrigger/replays';

const at = (ms: number) => new Date(Date.UTC(2026, 9, 1) + ms).toISOString();
const entry = (id: number, ms: number) => ({ id, createdAt: at(0), updatedAt: at(ms) });

describe('Instant Trigger: memory of the runs it started', () => {
	it('stays bounded, and a version it forgot is still refused: the floor moved past it', () => {
		const memory = freshMemory(at(0));
		for (let n = 0; n < 3 * MAX_RUNS_REMEMBERED; n++) {
			expect(judgeCall(memory, entry(n, 60_000 + n), ['update'])).toBe('run');
		}
		expect(memory.started).toHaveLength(MAX_RUNS_REMEMBERED);
		expect(JSON.stringify(memory).length).toBeLessThan(15_000);
		expect(judgeCall(memory, entry(0, 60_000), ['update'])).toBe('stale');
		const newest = 3 * MAX_RUNS_REMEMBERED - 1;
		expect(judgeCall(memory, entry(newest, 60_000 + newest), ['update'])).toBe('unchanged');
		expect(judgeCall(memory, entry(newest, 60_001 + newest), ['update'])).toBe('run');
	});

	it('inserts only: one run per entry, whatever changes later', () => {
		const memory = freshMemory(at(0));
		expect(judgeCall(memory, entry(7, 5_000), ['insert'])).toBe('run');
		expect(judgeCall(memory, entry(7, 9_000), ['insert'])).toBe('unchanged');
	});

	it('starts from a minute before the hook was stored, or from nothing when the platform did not say', () => {
		const memory = freshMemory(at(120_000));
		expect(memory).toEqual({ floor: at(60_000), started: [] });
		expect(judgeCall(memory, entry(1, 59_999), ['update'])).toBe('stale');
		expect(judgeCall(memory, entry(2, 60_000), ['update'])).toBe('run');
		const unknown = freshMemory(undefined);
		expect(judgeCall(unknown, entry(3, -1e9), ['update'])).toBe('run');
		expect(judgeCall(unknown, entry(3, -1e9), ['update'])).toBe('unchanged');
	});
});
