export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
export const AUDIO_BASE_TYPES = ['audio/webm', 'audio/mp4', 'audio/mpeg', 'audio/wav', 'audio/ogg'];
export const TRANSCRIPTION_MODELS = ['gpt-4o-mini-transcribe', 'gpt-4o-transcribe', 'whisper-1'];

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
	const base = baseMimeType(mimeType ?? '');
	if (!AUDIO_BASE_TYPES.includes(base)) {
		return {
			status: 415,
			message: `The audio type "${mimeType ?? 'unknown'}" is not supported`,
			description: `Transcription accepts ${AUDIO_BASE_TYPES.join(', ')} (codec suffixes such as ";codecs=opus" are fine). Convert the file, or correct the MIME type of the binary property if it is wrong.`,
		};
	}
	return undefined;
}
