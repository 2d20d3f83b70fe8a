/**
 * File names from outside (a media file's stored name, a host's Content-Disposition, a URL's last
 * segment) as n8n may hold them, and the names an upload may give the media library.
 */

/** Most file systems take at most 255 bytes in one name. */
export const MAX_FILE_NAME_BYTES = 255;
/** An ending longer than this is no extension (a name that happens to hold a dot). */
const MAX_EXTENSION_BYTES = 16;

/** C0 controls (NUL, CR, LF, tab…), DEL and the C1 controls. */
function isControl(code: number): boolean {
	return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

/**
 * The bidirectional formatting characters: marks, embeddings, overrides and isolates. U+202E
 * shows `photo` + U+202E + `gnp.exe` as `photoexe.png`.
 */
function isDirectionControl(code: number): boolean {
	return (
		code === 0x061c ||
		code === 0x200e ||
		code === 0x200f ||
		(code >= 0x202a && code <= 0x202e) ||
		(code >= 0x2066 && code <= 0x2069)
	);
}

const isSeparator = (char: string) => char === '/' || char === '\\';

/**
 * Only dots and spaces (`.`, `..`, `...`, `. .`): no name but a folder step. Windows drops the
 * dots and spaces a name ends with, so `...` there is `.`, the folder itself.
 */
const isOnlyDots = (name: string) => /^\s*\.[.\s]*$/.test(name);

/** The text without control and direction characters (every other character kept as it is). */
function withoutInvisibles(text: string): string {
	let kept = '';
	for (const char of text) {
		const code = char.codePointAt(0)!;
		if (!isControl(code) && !isDirectionControl(code)) kept += char;
	}
	return kept;
}

/**
 * Percent-encoded text (a URL's segment, a header's `filename*`) decoded as UTF-8, or as it is when
 * it is not valid percent-encoding (`100%.pdf`).
 */
export function percentDecoded(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** The text with control and direction characters written out (`\u{202E}`), for a message. */
export function visibleName(text: string): string {
	let shown = '';
	for (const char of text) {
		const code = char.codePointAt(0)!;
		shown +=
			isControl(code) || isDirectionControl(code)
				? `\\u{${code.toString(16).toUpperCase().padStart(4, '0')}}`
				: char;
	}
	return shown;
}

/** The name cut to `MAX_FILE_NAME_BYTES` in UTF-8, keeping its extension and whole characters. */
function withinBytes(name: string): string {
	if (Buffer.byteLength(name) <= MAX_FILE_NAME_BYTES) return name;
	const dot = name.lastIndexOf('.');
	const extension = dot > 0 ? name.slice(dot) : '';
	const keep =
		extension && !/\s/.test(extension) && Buffer.byteLength(extension) <= MAX_EXTENSION_BYTES
			? extension
			: '';
	const budget = MAX_FILE_NAME_BYTES - Buffer.byteLength(keep);
	let stem = '';
	let bytes = 0;
	for (const char of keep ? name.slice(0, dot) : name) {
		bytes += Buffer.byteLength(char);
		if (bytes > budget) break;
		stem += char;
	}
	return stem.trimEnd() + keep;
}

/**
 * A file name n8n can hold safely, or undefined when nothing usable is left: its last path segment
 * (`../../etc/passwd` gives `passwd`, `..\evil.png` gives `evil.png`; `.`, `..` or any name of
 * only dots is none),
 * without control characters (NUL, CR, LF…) or direction controls (U+202E…), trimmed, and at most
 * 255 bytes with its extension kept. An ordinary name (`Café ü.pdf`) comes out unchanged.
 */
export function cleanFileName(raw: string | undefined): string | undefined {
	if (typeof raw !== 'string') return undefined;
	const segments = withoutInvisibles(raw)
		.split(/[\\/]/)
		.map((segment) => segment.trim())
		.filter((segment) => segment && !isOnlyDots(segment));
	const name = segments.pop();
	return name === undefined ? undefined : withinBytes(name);
}

/**
 * Why a name may not be given to a file uploaded into the media library, or undefined when it may:
 * a path separator, a control character or a direction control would be stored as they are, and
 * whoever downloads the file later would meet them.
 */
export function unsafeUploadName(name: string): string | undefined {
	let reason: string | undefined;
	for (const char of name) {
		const code = char.codePointAt(0)!;
		if (isSeparator(char)) return 'it holds a path separator (/ or \\)';
		if (isControl(code)) reason ??= 'it holds a control character (such as NUL or a line break)';
		else if (isDirectionControl(code))
			reason ??=
				'it holds a text-direction control (such as U+202E), which can disguise its extension';
	}
	if (!reason && isOnlyDots(name)) return 'it is only dots (such as ".."), a folder step';
	return reason;
}
