// Lint of the development tools that never ship: the sandbox, tests, scripts and benchmarks.
// eslint.config.mjs is n8n's default (strict mode, as `n8n-node cloud-support enable` writes it)
// and holds the published code to n8n's rules; `npm run lint` runs both. This config is run with
// --no-inline-config, so the disable comment that keeps n8n's rules off a test file hides nothing
// from the rules below.
import tseslint from 'typescript-eslint';
import js from '@eslint/js';
import globals from 'globals';

export default [
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
