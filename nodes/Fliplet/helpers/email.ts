const EMAIL_ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\.]+(\.[^\s@<>(),;:"[\]\\.]+)+$/;

/** Whether a plain address (no display name) looks deliverable: one @, a dotted domain, no spaces. */
export function isEmailAddress(value: string): boolean {
	return value.length <= 254 && EMAIL_ADDRESS.test(value);
}

/**
 * Addresses from a comma-, semicolon- or newline-separated text, or from a list (of texts, or of
 * objects with an `email`), trimmed, empty ones dropped.
 */
export function splitAddresses(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const parts = Array.isArray(value) ? value : [value];
	return parts
		.flatMap((part) => {
			if (part && typeof part === 'object' && 'email' in part) return [String(part.email)];
			return String(part).split(/[,;\n]/);
		})
		.map((address) => address.trim())
		.filter((address) => address !== '');
}

/** The addresses that are not valid, in their order. */
export function invalidAddresses(addresses: string[]): string[] {
	return addresses.filter((address) => !isEmailAddress(address));
}

/** Standard message headers a sender may set besides custom `X-` ones. */
const STANDARD_HEADERS = [
	'reply-to',
	'in-reply-to',
	'references',
	'list-unsubscribe',
	'list-unsubscribe-post',
	'list-id',
	'precedence',
	'priority',
	'importance',
	'sensitivity',
	'auto-submitted',
];

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Why a header cannot be sent, or undefined when it can. */
export function headerProblem(name: string, value: string): string | undefined {
	if (!HEADER_NAME.test(name)) return `"${name}" is not a valid header name`;
	if (/[\r\n]/.test(value)) return `the value of "${name}" contains a line break`;
	const lower = name.toLowerCase();
	if (!lower.startsWith('x-') && !STANDARD_HEADERS.includes(lower)) {
		return `"${name}" is neither a custom header starting with "X-" nor one of ${STANDARD_HEADERS.join(', ')}`;
	}
	return undefined;
}
