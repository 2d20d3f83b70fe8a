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

/** AI calls wait for a model; email and SMS for a mail or SMS gateway; everything else is data. */
export function timeoutKind(path: string): TimeoutKind {
	if (/^\/v1\/apps\/[^/]+\/ai\//.test(path)) return 'ai';
	if (path.startsWith('/v1/communicate/')) return 'communicate';
	return 'data';
}

/** Milliseconds to wait for an answer, from the credential's field for that kind of call. */
export function timeoutFor(kind: TimeoutKind, credentials: FlipletCredentialData): number {
	const seconds = Number(credentials[FIELD[kind]]);
	return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS[kind]) * 1000;
}
