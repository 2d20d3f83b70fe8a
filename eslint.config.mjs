// The rule sets of n8n's own `n8n-node lint` (from @n8n/node-cli), applied to the published code.
// The sandbox, tests, scripts and benchmarks are development tools that never ship: they may use
// Node's globals and modules, so they only get the general TypeScript rules.
import { config } from '@n8n/node-cli/eslint';
import tseslint from 'typescript-eslint';
import { globalIgnores } from 'eslint/config';
import js from '@eslint/js';
import globals from 'globals';

const devTools = ['sandbox/**', 'test/**', 'scripts/**', 'bench/**', 'examples/**'];
const isGlobalIgnore = (block) =>
	block.ignores && Object.keys(block).every((key) => key === 'ignores' || key === 'name');

export default [
	globalIgnores([
		'dist',
		'coverage',
		'.cache',
		'.stryker-tmp',
		'reports',
		'gulpfile.js',
		'index.js',
		'jest.config.js',
		'.prettierrc.js',
	]),
	...config.map((block) =>
		isGlobalIgnore(block) ? block : { ...block, ignores: [...(block.ignores ?? []), ...devTools] },
	),
	...tseslint.config({
		files: ['test/**/*.ts', 'bench/**/*.ts'],
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
			// Tests load the sandbox (plain CommonJS, no type declarations) and n8n-core's own copy
			// of a module with require(); ES imports cannot express either.
			'@typescript-eslint/no-require-imports': 'off',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	}),

	{
		files: ['sandbox/**/*.js', 'scripts/**/*.js', 'bench/**/*.js', 'test/**/*.js'],
		...js.configs.recommended,
		languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.jest } },
		rules: {
			...js.configs.recommended.rules,
			'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
];
