const BASE64_BODY = /^[A-Za-z0-9+/\s]*/;
const ONLY_WHITESPACE = /^\s*$/;

/**
 * Whether the text is base64 as mail attachments take it: base64 characters and whitespace, up to
 * two `=` of padding, then only whitespace. Checked in steps that never go back over the text (a
 * single pattern for the whole rule would retry each split of a run of spaces), so a text of
 * megabytes is checked in milliseconds.
 */
export function isBase64Text(text: string): boolean {
	let index = BASE64_BODY.exec(text)![0].length;
	for (let padding = 0; padding < 2 && text[index] === '='; padding++) index++;
	return ONLY_WHITESPACE.test(text.slice(index));
}
