/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The test set of the mutation run (npm run test:mutation, see stryker.config.json): every Sync
// test file (test/sync/*.test.ts and the Sync fault tests), loaded by this one module. Stryker
// re-runs the tests for every mutant; as one file they load n8n's engine once per mutant instead
// of once per file, and the run's environment (bailEnvironment.js) can stop at the first failure.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// Fast tests first: a mutant is killed by the first test that fails (bailEnvironment.js), so the
// slow fault, timeout and pacing tests only run for mutants the others leave alive.
const FAST_FIRST = ['helpers.test.ts', 'sync.test.ts'];
const SLOW_LAST = ['syncPaging.test.ts', 'chunksAndPacing.test.ts'];
const rank = (name: string) =>
	FAST_FIRST.includes(name)
		? -1 - FAST_FIRST.length + FAST_FIRST.indexOf(name)
		: SLOW_LAST.indexOf(name);

const syncTests = readdirSync(__dirname)
	.filter((name) => name.endsWith('.test.ts'))
	.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
	.map((name) => join(__dirname, name));

for (const file of [...syncTests, join(__dirname, '../reliability/syncFaults.test.ts')]) {
	jest.requireActual(file);
}
