// The Sync core's mutation run: npm run test:mutation -- sync (CONTRIBUTING.md "Mutation testing").
const { mutationTarget } = require('./stryker.base');

module.exports = mutationTarget('sync', {
	mutate: [
		'nodes/Fliplet/actions/entry/sync/**/*.ts',
		'nodes/Fliplet/actions/entry/sync.operation.ts',
	],
	suite: 'syncSuite.ts',
});
