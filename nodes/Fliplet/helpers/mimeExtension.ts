/** Usual file extensions of the MIME types people attach, so a mail client can open the file. */
const EXTENSIONS: Record<string, string> = {
	'application/pdf': 'pdf',
	'application/json': 'json',
	'application/xml': 'xml',
	'application/zip': 'zip',
	'application/gzip': 'gz',
	'application/msword': 'doc',
	'application/vnd.ms-excel': 'xls',
	'application/vnd.ms-powerpoint': 'ppt',
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
	'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
	'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
	'application/rtf': 'rtf',
	'text/plain': 'txt',
	'text/csv': 'csv',
	'text/html': 'html',
	'text/calendar': 'ics',
	'text/markdown': 'md',
	'text/xml': 'xml',
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/gif': 'gif',
	'image/webp': 'webp',
	'image/svg+xml': 'svg',
	'image/heic': 'heic',
	'image/tiff': 'tif',
	'image/bmp': 'bmp',
	'audio/mpeg': 'mp3',
	'audio/mp4': 'm4a',
	'audio/wav': 'wav',
	'audio/ogg': 'ogg',
	'audio/webm': 'weba',
	'video/mp4': 'mp4',
	'video/quicktime': 'mov',
	'video/webm': 'webm',
};

/** The extension for a MIME type (parameters such as `; charset=utf-8` ignored), if it is a known one. */
export function extensionForMimeType(mimeType: string | undefined): string | undefined {
	const base = String(mimeType ?? '')
		.split(';')[0]
		.trim()
		.toLowerCase();
	return EXTENSIONS[base];
}

/**
 * A file name for a binary that has none: the binary property's name plus the binary's own
 * extension, or one derived from its MIME type (`invoice` + application/pdf gives invoice.pdf).
 */
export function fallbackFileName(
	property: string,
	mimeType: string | undefined,
	fileExtension?: string,
): string {
	const extension = fileExtension?.replace(/^\./, '').trim() || extensionForMimeType(mimeType);
	return extension ? `${property}.${extension}` : property;
}
