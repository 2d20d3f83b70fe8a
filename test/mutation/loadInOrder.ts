/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The test set of a mutation run is one jest module that loads its test files (see syncSuite.ts,
// transportSuite.ts): Stryker re-runs the tests for every mutant, and as one module they load
// n8n's engine once per mutant instead of once per file; the run's environment
// (bailEnvironment.js) then stops at the first failure.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const TEST_ROOT = join(__dirname, '..');

/** The test files of a folder of test/, as paths below test/ (e.g. `sync/sync.test.ts`). */
export function testFilesOf(folder: string): string[] {
	return readdirSync(join(TEST_ROOT, folder))
		.filter((name) => name.endsWith('.test.ts'))
		.map((name) => `${folder}/${name}`);
}

/**
 * Loads the test files (paths below test/) in this order: `first` as listed, then the others by
 * name, then `last` as listed. A mutant is killed by the first test that fails, so fast tests go
 * first and the slow fault, timeout and pacing tests only run for mutants the others leave alive.
 */
export function loadInOrder(
	files: string[],
	order: { first?: string[]; last?: string[] } = {},
): void {
	const { first = [], last = [] } = order;
	for (const listed of [...first, ...last]) {
		if (!files.includes(listed)) throw new Error(`${listed} is not among the suite's test files`);
	}
	const rank = (file: string) =>
		first.includes(file)
			? first.indexOf(file) - first.length
			: last.includes(file)
				? 1 + last.indexOf(file)
				: 0;
	const sorted = [...new Set(files)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
	for (const file of sorted) jest.requireActual(join(TEST_ROOT, file));
}
