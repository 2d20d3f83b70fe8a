const EXCERPT_LENGTH = 60;

/**
 * A value as an error message quotes it: whole when short, otherwise its start and its length, so
 * a message about a field holding megabytes stays readable (and small in the execution log).
 */
export function excerpt(value: string): string {
	if (value.length <= EXCERPT_LENGTH) return value;
	return `${value.slice(0, EXCERPT_LENGTH)}… (${value.length.toLocaleString('en-US')} characters)`;
}
