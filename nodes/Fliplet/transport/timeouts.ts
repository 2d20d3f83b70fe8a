import type { FlipletCredentialData } from './baseUrl';

/** Which of the credential's timeouts a request falls under. */
export type TimeoutKind = 'data' | 'communicate' | 'ai';

/** Defaults in seconds, the same as the credential fields' defaults. */
export const DEFAULT_TIMEOUT_SECONDS: Record<TimeoutKind, number> = {
	data: 60,
	communicate: 30,
	ai: 300,
};

const FIELD: Record<TimeoutKind, keyof FlipletCredentialData> = {
	data: 'timeout',
	communicate: 'communicateTimeout',
	ai: 'aiTimeout',
};

/** The credential fields, as the user sees them. */
const FIELD_NAME: Record<TimeoutKind, string> = {
	data: 'Data Timeout (Seconds)',
	communicate: 'Email and SMS Timeout (Seconds)',
	ai: 'AI Timeout (Seconds)',
};

/** The credential field that sets the timeout of a request to `path`. */
export function timeoutField(path: string): string {
	return FIELD_NAME[timeoutKind(path)];
}

/** AI calls wait for a model; email and SMS for a mail or SMS gateway; everything else is data. */
export function timeoutKind(path: string): TimeoutKind {
	if (/^\/v1\/apps\/[^/]+\/ai\//.test(path)) return 'ai';
	if (path.startsWith('/v1/communicate/')) return 'communicate';
	return 'data';
}

/** Milliseconds a whole request (connect, upload, answer) may take, from the credential's field for that kind of call. */
export function timeoutFor(kind: TimeoutKind, credentials: FlipletCredentialData): number {
	const seconds = Number(credentials[FIELD[kind]]);
	return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS[kind]) * 1000;
}
