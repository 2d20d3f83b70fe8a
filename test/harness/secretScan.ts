/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { credentialTypes } from './packageTypes';

// The sandbox is plain JavaScript so scripts can run it without a build.
const { TOKENS } = require('../../sandbox') as { TOKENS: Record<string, string> };

/** Shorter values (e.g. a region code) would match by chance, not by leaking. */
const MIN_SECRET_LENGTH = 8;

/**
 * n8n-core logs through its own copy of @n8n/backend-common's Logger: every scoped logger and
 * LoggerProxy end in `Logger.prototype.log`, so wrapping it sees everything a node logs. The
 * Logger swaps the levels below its own for no-ops when built; keeping them lets the scan see
 * debug messages too (winston still drops them from the console by level).
 */
const capturedLogs: string[] = [];

type LoggerPrototype = { log: (...args: unknown[]) => unknown; setLevel: () => void };

/** Wraps the logger; returns what puts it back. */
function wrapLogger(): () => void {
	const { Logger } = require(
		require.resolve('@n8n/backend-common', { paths: [require.resolve('n8n-core')] }),
	) as { Logger: { prototype: LoggerPrototype } };
	const { log, setLevel } = Logger.prototype;
	Logger.prototype.log = function (this: unknown, ...args: unknown[]) {
		capturedLogs.push(safeStringify(args));
		return log.apply(this, args);
	};
	Logger.prototype.setLevel = () => {};
	return () => {
		Logger.prototype.log = log;
		Logger.prototype.setLevel = setLevel;
		capturedLogs.length = 0;
	};
}

// Wrapped when a test file loads the harness (before n8n builds its logger, so every level is
// kept) and put back once that file's tests are done. Benchmarks load the harness outside jest.
const restoreLogger = wrapLogger();
if (typeof afterAll === 'function') afterAll(restoreLogger);

/** Starts recording what n8n's logger receives (call before a run). */
export function startLogCapture(): void {
	capturedLogs.length = 0;
}

export function logsSinceCapture(): string[] {
	return [...capturedLogs];
}

function safeStringify(value: unknown): string {
	const seen = new WeakSet<object>();
	try {
		return (
			JSON.stringify(value, (_key, inner: unknown) => {
				if (inner instanceof Error) {
					return { ...inner, message: inner.message, stack: inner.stack };
				}
				if (typeof inner === 'object' && inner !== null) {
					if (seen.has(inner)) return '[circular]';
					seen.add(inner);
				}
				return inner;
			}) ?? ''
		);
	} catch {
		return String(value);
	}
}

/**
 * The secrets of a run: every sandbox token, and every password-typed value of the credentials
 * given (all string values of a credential type the registry does not know).
 */
export function secretsOf(credentials: Record<string, ICredentialDataDecryptedObject>): string[] {
	const secrets = new Set<string>(Object.values(TOKENS));
	for (const [type, data] of Object.entries(credentials)) {
		const properties = credentialTypes[type]?.properties;
		for (const [name, value] of Object.entries(data)) {
			if (typeof value !== 'string') continue;
			const property = properties?.find((candidate) => candidate.name === name);
			if (!properties || property?.typeOptions?.password) secrets.add(value);
		}
	}
	return [...secrets].filter((secret) => secret.length >= MIN_SECRET_LENGTH);
}

export interface ScanTarget {
	/** What a run hands on: its output items. */
	items: unknown;
	error?: (Error & { description?: unknown; context?: unknown }) | undefined;
	logs: string[];
}

/** Where each secret shows up in a run's output, error or logs (empty: no leak). */
export function findSecretLeaks(target: ScanTarget, secrets: string[]): string[] {
	const error = target.error;
	const places: Array<[string, string]> = [
		['output items', safeStringify(target.items)],
		['error message', String(error?.message ?? '')],
		['error description', safeStringify(error?.description ?? '')],
		['error context', safeStringify(error?.context ?? {})],
		['error stack', String(error?.stack ?? '')],
		['error', safeStringify(error ?? {})],
		['logs', target.logs.join('\n')],
	];
	const leaks: string[] = [];
	for (const secret of secrets) {
		for (const [place, text] of places) {
			if (text.includes(secret)) leaks.push(`${place} contain the secret "${secret.slice(0, 4)}…"`);
		}
	}
	return leaks;
}

export class SecretLeakError extends Error {
	constructor(leaks: string[]) {
		super(`A secret leaked from the run: ${leaks.join('; ')}`);
		this.name = 'SecretLeakError';
	}
}

/** Throws when any secret appears in what the run produced or logged. */
export function assertNoSecretLeak(target: ScanTarget, secrets: string[]): void {
	const leaks = findSecretLeaks(target, secrets);
	if (leaks.length) throw new SecretLeakError(leaks);
}
