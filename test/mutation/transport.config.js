// The transport's mutation run: npm run test:mutation -- transport (CONTRIBUTING.md "Mutation
// testing").
const { mutationTarget } = require('./stryker.base');

module.exports = mutationTarget('transport', {
	mutate: ['nodes/Fliplet/transport/**/*.ts'],
	suite: 'transportSuite.ts',
});
