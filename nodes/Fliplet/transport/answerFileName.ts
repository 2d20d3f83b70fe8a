import { cleanFileName, percentDecoded } from '../helpers/fileNames';
import { header } from './retryPolicy';

/** The last segment of a URL's path, decoded (not yet cleaned). */
export function lastSegment(url: URL): string {
	return percentDecoded(url.pathname.split('/').pop() ?? '');
}

/**
 * The name an answer gives its file (Content-Disposition's `filename*`, then `filename`), else
 * the last segment of its URL, cleaned (cleanFileName): the first that leaves a name.
 */
export function answerFileName(headers: Record<string, unknown>, url: URL): string | undefined {
	const disposition = header(headers, 'content-disposition') ?? '';
	const extended = /filename\*\s*=\s*([^';]*)'[^';]*'([^;]+)/i.exec(disposition);
	const encoded = extended ? decodedAs(extended[2].trim(), extended[1].trim()) : undefined;
	const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(disposition);
	const candidates = [
		encoded,
		percentDecoded((plain?.[1] ?? plain?.[2] ?? '').trim()),
		lastSegment(url),
	];
	for (const candidate of candidates) {
		const name = cleanFileName(candidate);
		if (name) return name;
	}
	return undefined;
}

/** RFC 8187's value of `filename*`: percent-encoded bytes of UTF-8 (or ISO-8859-1). */
function decodedAs(text: string, charset: string): string | undefined {
	if (/^utf-8$/i.test(charset)) return percentDecoded(text);
	if (!/^iso-8859-1$/i.test(charset)) return undefined;
	return text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
		String.fromCharCode(parseInt(hex, 16)),
	);
}
