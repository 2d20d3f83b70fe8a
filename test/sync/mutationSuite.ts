// The test set of the mutation run (npm run test:mutation, see stryker.config.json): every Sync
// test file (test/sync/*.test.ts and the Sync fault tests), loaded by this one module. Stryker
// re-runs the tests for every mutant; as one file they load n8n's engine once per mutant instead
// of once per file, and the run's environment (bailEnvironment.js) can stop at the first failure.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const syncTests = readdirSync(__dirname)
	.filter((name) => name.endsWith('.test.ts'))
	.sort()
	.map((name) => join(__dirname, name));

for (const file of [join(__dirname, '../reliability/syncFaults.test.ts'), ...syncTests]) {
	jest.requireActual(file);
}
