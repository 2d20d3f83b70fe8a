export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
export const AUDIO_BASE_TYPES = ['audio/webm', 'audio/mp4', 'audio/mpeg', 'audio/wav', 'audio/ogg'];
export const TRANSCRIPTION_MODELS = ['gpt-4o-mini-transcribe', 'gpt-4o-transcribe', 'whisper-1'];

/**
 * Other names of the accepted types. n8n itself labels a .wav file audio/wave and a .webm or .mp4
 * file video/webm or video/mp4, and browsers use audio/mp3 or audio/x-m4a: the same containers,
 * so the file part is sent under the accepted name instead of being refused.
 */
const AUDIO_TYPE_ALIASES: Record<string, string> = {
	'audio/wave': 'audio/wav',
	'audio/x-wav': 'audio/wav',
	'audio/vnd.wave': 'audio/wav',
	'audio/mp3': 'audio/mpeg',
	'audio/x-m4a': 'audio/mp4',
	'audio/m4a': 'audio/mp4',
	'video/webm': 'audio/webm',
	'video/mp4': 'audio/mp4',
	'application/ogg': 'audio/ogg',
};

/** The MIME type to send: an alias becomes its accepted type, codec parameters are kept. */
export function uploadMimeType(mimeType: string): string {
	const [base, ...parameters] = mimeType.split(';');
	const accepted = AUDIO_TYPE_ALIASES[base.trim().toLowerCase()];
	return accepted ? [accepted, ...parameters].join(';') : mimeType;
}

/** `audio/webm;codecs=opus` → `audio/webm`. */
export function baseMimeType(mimeType: string): string {
	return mimeType.split(';')[0].trim().toLowerCase();
}

/** Why the platform would refuse this audio (413 or 415), or undefined when it is acceptable. */
export function audioProblem(
	size: number,
	mimeType: string | undefined,
): { status: 413 | 415; message: string; description: string } | undefined {
	if (size > MAX_AUDIO_BYTES) {
		return {
			status: 413,
			message: `The audio file is too large: ${size} bytes, the limit is 25 MiB (${MAX_AUDIO_BYTES} bytes)`,
			description:
				'Split or compress the recording (e.g. a lower bit rate) so it is at most 25 MiB.',
		};
	}
	const base = baseMimeType(uploadMimeType(mimeType ?? ''));
	if (!AUDIO_BASE_TYPES.includes(base)) {
		return {
			status: 415,
			message: `The audio type "${mimeType ?? 'unknown'}" is not supported`,
			description: `Transcription accepts ${AUDIO_BASE_TYPES.join(', ')} (codec suffixes such as ";codecs=opus" are fine). Convert the file, or correct the MIME type of the binary property if it is wrong.`,
		};
	}
	return undefined;
}
