// The jest environment of the mutation runs (stryker.base.js): once a test fails, the tests still
// to come are skipped. One failure already kills the mutant, and jest cannot stop a test file
// early on its own, so without this every mutant would run every test of its suite to the end.
const { TestEnvironment } = require('jest-environment-node');

class BailOnFirstFailure extends TestEnvironment {
	failed = false;

	async handleTestEvent(event, state) {
		if (event.name === 'test_fn_failure' || event.name === 'hook_failure') this.failed = true;
		if (event.name === 'test_start' && this.failed) event.test.mode = 'skip';
		if (super.handleTestEvent) await super.handleTestEvent(event, state);
	}
}

module.exports = BailOnFirstFailure;
