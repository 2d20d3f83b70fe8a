import { excerpt } from './excerpt';

const EMAIL_ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\.]+(\.[^\s@<>(),;:"[\]\\.]+)+$/;

/** Whether a plain address (no display name) looks deliverable: one @, a dotted domain, no spaces. */
export function isEmailAddress(value: string): boolean {
	return value.length <= 254 && EMAIL_ADDRESS.test(value);
}

/** One recipient as the API takes it: the address, and the display name beside it when given. */
export interface Recipient {
	email: string;
	name?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
const SEPARATORS = new Set([0x2c, 0x3b, 0x0a]); // , ; and a new line

/**
 * Splits on commas, semicolons and new lines outside quotes and angle brackets. One pass that
 * slices the parts out (no text is built character by character), so a text of megabytes is split
 * in milliseconds.
 */
function splitOutsideQuotes(text: string): string[] {
	const parts: string[] = [];
	let start = 0;
	let quoted = false;
	let angled = false;
	for (let i = 0; i < text.length; i++) {
		const char = text.charCodeAt(i);
		if (quoted && char === BACKSLASH) i++;
		else if (char === QUOTE) quoted = !quoted;
		else if (quoted) continue;
		else if (char === LESS_THAN) angled = true;
		else if (char === GREATER_THAN) angled = false;
		else if (!angled && SEPARATORS.has(char)) {
			parts.push(text.slice(start, i));
			start = i + 1;
		}
	}
	parts.push(text.slice(start));
	return parts;
}

/**
 * A recipient text: a bare address, or a display name followed by the address in angle brackets,
 * as mail clients copy it (a name holding a comma in double quotes). The address is not checked
 * here.
 */
export function parseRecipient(text: string): Recipient {
	const trimmed = text.trim();
	const open = trimmed.lastIndexOf('<');
	if (open < 0 || !trimmed.endsWith('>')) return { email: trimmed };
	const email = trimmed.slice(open + 1, -1).trim();
	let name = trimmed.slice(0, open).trim();
	if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) {
		name = name.slice(1, -1).replace(/\\(.)/g, '$1').trim();
	}
	return name ? { email, name } : { email };
}

/**
 * Recipients from a comma-, semicolon- or newline-separated text, or from a list (of texts, or of
 * objects with an `email` and maybe a `name`), trimmed, empty ones dropped.
 */
export function splitRecipients(value: unknown): Recipient[] {
	if (value === undefined || value === null) return [];
	const parts = Array.isArray(value) ? value : [value];
	return parts.flatMap((part): Recipient[] => {
		if (part && typeof part === 'object' && 'email' in part) {
			const { email, name } = part as { email: unknown; name?: unknown };
			const recipient = parseRecipient(String(email));
			const given = typeof name === 'string' ? name.trim() : '';
			return [given ? { ...recipient, name: given } : recipient];
		}
		return splitOutsideQuotes(String(part))
			.filter((text) => text.trim() !== '')
			.map(parseRecipient);
	});
}

/** A recipient as it was written, for error messages. */
export function recipientText({ email, name }: Recipient): string {
	return name === undefined ? email : `${name} <${email}>`;
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

/**
 * Whether the text holds a line break (CR or LF): in a text that becomes a line of the message's
 * head (subject, sender name, display names, file names, header values) it would start a header
 * of its own.
 */
export function hasLineBreak(text: string): boolean {
	return /[\r\n]/.test(text);
}

/** Why a header cannot be sent, or undefined when it can. */
export function headerProblem(name: string, value: string): string | undefined {
	if (!HEADER_NAME.test(name)) return `"${excerpt(name)}" is not a valid header name`;
	if (hasLineBreak(value)) return `the value of "${name}" contains a line break`;
	const lower = name.toLowerCase();
	if (!lower.startsWith('x-') && !STANDARD_HEADERS.includes(lower)) {
		return `"${name}" is neither a custom header starting with "X-" nor one of ${STANDARD_HEADERS.join(', ')}`;
	}
	return undefined;
}
