import { resetSafeRegexEngine, setSafeRegexEngine } from 'n8n-workflow';

/**
 * Runs `body` while recording the regular expressions n8n-workflow would evaluate under its time
 * limit (locator validation, extractValue, filters). They run natively while recorded; the
 * default guarded engine is back when `body` ends, however it ends.
 */
export async function recordGuardedRegex(body: () => Promise<unknown>): Promise<string[]> {
	const patterns: string[] = [];
	const compile = (pattern: string, flags?: string) => {
		patterns.push(pattern);
		return new RegExp(pattern, flags);
	};
	setSafeRegexEngine({
		exec: (pattern, input, flags) => compile(pattern, flags).exec(input),
		test: (pattern, input, flags) => compile(pattern, flags).test(input),
		replace: (pattern, input, flags, replacement) =>
			input.replace(compile(pattern, flags), replacement),
		matchAll: (pattern, input, flags) => [
			...input.matchAll(compile(pattern, flags?.includes('g') ? flags : `${flags ?? ''}g`)),
		],
		split: (pattern, input, flags) => input.split(compile(pattern, flags)),
	});
	try {
		await body();
	} finally {
		resetSafeRegexEngine();
	}
	return patterns;
}
