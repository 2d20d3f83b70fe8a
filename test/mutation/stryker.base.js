// What the mutation runs share (sync.config.js, transport.config.js; CONTRIBUTING.md "Mutation
// testing"): StrykerJS with the jest runner, one test module per target (see loadInOrder.ts) in an
// environment that skips the remaining tests after the first failure, and reports per target.

/**
 * The StrykerJS options of one target: `mutate` is the code it changes, `suite` the test module
 * of this folder whose tests must notice each change.
 * @param {string} name
 * @param {{ mutate: string[]; suite: string }} target
 */
function mutationTarget(name, { mutate, suite }) {
	return {
		testRunner: 'jest',
		jest: {
			projectType: 'custom',
			configFile: 'jest.config.js',
			config: {
				testMatch: [`**/test/mutation/${suite}`],
				testEnvironment: './test/mutation/bailEnvironment.js',
			},
			enableFindRelatedTests: false,
		},
		mutate,
		coverageAnalysis: 'perTest',
		ignoreStatic: true,
		ignorePatterns: [
			'dist',
			'coverage',
			'bench',
			'examples',
			'.cache',
			'.n8n-e2e',
			'reports',
			'.ci',
		],
		tempDirName: '.stryker-tmp',
		reporters: ['clear-text', 'progress', 'html', 'json'],
		htmlReporter: { fileName: `reports/mutation/${name}.html` },
		jsonReporter: { fileName: `reports/mutation/${name}.json` },
		incrementalFile: `reports/mutation/${name}-incremental.json`,
		timeoutFactor: 2,
		timeoutMS: 10000,
	};
}

module.exports = { mutationTarget };
