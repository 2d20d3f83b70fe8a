import {
	COUNTED_SCENARIOS,
	REFUSAL_RUN_SCENARIOS,
	simulate,
	type Outcome,
	type Scenario,
} from '../../bench/pacingSimulation.bench';

// Processes on one token with the credential's count left at 1, in virtual time (the transport's
// own windows and attempt loop against the sandbox's limiter model, see bench/pacingSimulation.bench.ts):
// over 200 fixed seeds of each shape, no request is refused more than twice in a row, counted per
// request and as the queue tier's check counts it from what the sandbox records. Fixed seeds: a
// failure here is the same on every run, and names the seed to trace.

const SEEDS = 200;
const MAX_REFUSAL_RUN = 2;

/** Seeds whose run breaks the bound, with what it met. */
async function breaches(base: Omit<Scenario, 'seed'>): Promise<string[]> {
	const found: string[] = [];
	for (let seed = 1; seed <= SEEDS; seed++) {
		const outcome: Outcome = await simulate({ ...base, seed });
		const longest = Math.max(outcome.longestRefusalRun, outcome.checkedRun);
		if (longest > MAX_REFUSAL_RUN || outcome.failed) {
			found.push(`seed ${seed}: refused ${longest} times in a row, ${outcome.failed} failed`);
		}
	}
	return found;
}

const described = (base: Omit<Scenario, 'seed'>) =>
	`${base.processes} processes, ${base.area === 'data' ? 'data sources' : 'email'}${base.executions ? `, ${base.executions} executions each` : ''}, starting within ${base.startSpreadMs / 1000} s${base.stalls ? ', event loops stalling' : ''}`;

describe(`processes on one token, the count set to them: no request refused more than ${MAX_REFUSAL_RUN} times in a row over ${SEEDS} seeds`, () => {
	it.each(COUNTED_SCENARIOS.map((base) => [described(base), base] as const))(
		'%s',
		async (_, base) => {
			expect(base.setting).toBe(base.processes);
			expect(await breaches(base)).toEqual([]);
		},
		180_000,
	);
});

describe(`processes on one token, the count left at 1: no request refused more than ${MAX_REFUSAL_RUN} times in a row over ${SEEDS} seeds`, () => {
	it.each(REFUSAL_RUN_SCENARIOS.map((base) => [described(base), base] as const))(
		'%s',
		async (_, base) => {
			expect(await breaches(base)).toEqual([]);
		},
		120_000,
	);

	it('the shapes include late starters, several executions with alike requests, stalls and email', () => {
		expect(REFUSAL_RUN_SCENARIOS.every((base) => base.setting === 1 && base.processes > 1)).toBe(
			true,
		);
		expect(REFUSAL_RUN_SCENARIOS.some((base) => (base.executions ?? 1) > 1)).toBe(true);
		expect(REFUSAL_RUN_SCENARIOS.some((base) => base.stalls)).toBe(true);
		expect(REFUSAL_RUN_SCENARIOS.some((base) => base.area === 'communicate')).toBe(true);
		expect(REFUSAL_RUN_SCENARIOS.some((base) => base.processes === 4)).toBe(true);
	});

	it('the count is not vacuous: the same shapes do refuse, and without the retake lag a process sending full windows keeps another one out', async () => {
		for (const base of [...REFUSAL_RUN_SCENARIOS, ...COUNTED_SCENARIOS]) {
			expect((await simulate({ ...base, seed: 1 })).refused).toBeGreaterThan(0);
		}
		const email = REFUSAL_RUN_SCENARIOS.find(
			(base) => base.area === 'communicate' && base.processes === 2,
		)!;
		const greedy = await breaches({ ...email, policy: { retakeLagShare: 0 } });
		expect(greedy.length).toBeGreaterThan(0);
	}, 120_000);
});
