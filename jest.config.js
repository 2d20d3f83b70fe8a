/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.check.json' }],
	},
	globalSetup: '<rootDir>/test/setup/globalSetup.js',
	globalTeardown: '<rootDir>/test/setup/globalTeardown.js',
	setupFiles: ['<rootDir>/test/setup/env.js'],
	testTimeout: 60000,
	maxWorkers: 2,
};
