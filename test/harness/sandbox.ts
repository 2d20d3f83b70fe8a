/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { forgetKeyColumns } from '../../nodes/Fliplet/actions/entry/sync/keyColumnMemory';
import { forgetSearchLists } from '../../nodes/Fliplet/methods/listSearch/searchCache';
import { forgetRateWindows } from '../../nodes/Fliplet/transport/pacing';
import { removeSandboxListeners } from './sandboxEvents';

// The sandbox is plain JavaScript so scripts can run it without a build.
const sandboxModule = require('../../sandbox');

export const TOKENS: Record<'org' | 'app' | 'otherApp' | 'studio' | 'us' | 'otherOrg', string> =
	sandboxModule.TOKENS;

export interface SandboxRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	body: any;
	bytes: number;
	status?: number;
	at: number;
	/** The client left before the whole answer was written (it gave up or was stopped). */
	abandoned?: boolean;
	/** Settles when the request's connection has closed, either way (in-process sandboxes only). */
	closed: Promise<void>;
	/** The `<tag>` of a request sent to `/__tag/<tag>/v1/…` (a base URL with a path). */
	tag?: string;
	/** A `land-late` write that has landed (after its answer), and the status its handler gave. */
	landedLate?: boolean;
	landedStatus?: number;
}

/** A request the sandbox's CDN-like host received (sandbox/media/cdn.js). */
export interface CdnRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	status: number;
	at: number;
}

export interface Sandbox {
	url: string;
	/** The CDN-like host of public files: another origin than `url`. */
	cdnUrl: string;
	/** What the CDN-like host received (cleared by reset). */
	cdnRequests: CdnRequest[];
	urls(): { api: string; cdn: string };
	state: any;
	requests: SandboxRequest[];
	faults: any[];
	rateLimiter: {
		enabled: boolean;
		limits: Record<string, { limit: number; windowMs: number }>;
		/** AI requests a day per organization, by area (`ai`, `aiPaid`). */
		dailyCaps: Record<string, number>;
		reset(): void;
	};
	reset(): void;
	/** The writes `land-late` faults hold, oldest first (a reset discards them). */
	held: Array<{ record: SandboxRequest; land(): Promise<void> }>;
	/** Lands every held write now, oldest first; resolves with how many landed. */
	landHeld(): Promise<number>;
	/** Use `onSandboxRequest` (test/harness/sandboxEvents.ts), which documents when it is removed. */
	onRequest(listener: (request: SandboxRequest) => void): () => void;
	injectFault(fault: SandboxFault): void;
	/**
	 * Another writer acting between two requests: `run` gets the sandbox state (and the request
	 * body) just before the `nth` (default 1) matching API request is handled, once. Reset clears it.
	 */
	beforeHandling(interleave: {
		run: (state: any, body: any) => void | Promise<void>;
		nth?: number;
		method?: string;
		path?: string;
	}): void;
	start(port?: number, host?: string, cdnPort?: number): Promise<string>;
	stop(): Promise<void>;
}

export interface SandboxFault {
	mode:
		| 'status-before'
		| 'status-after'
		| 'drop-before'
		| 'drop-after'
		| 'delay'
		| 'cut-after'
		| 'drip-after'
		| 'stall-after'
		| 'stamp-at-start'
		| 'ignore-offset'
		| 'land-late';
	count?: number;
	status?: number;
	/** JSON body of the status-* modes (default `{message: 'Injected fault…'}`). */
	body?: unknown;
	/** Extra response headers of the status-* modes. */
	headers?: Record<string, string>;
	delayMs?: number;
	/** cut-after: bytes of the body sent before the connection is cut (default: half). */
	cutAtBytes?: number;
	/** drip-after: bytes per drip (default 1) and the time between drips (default 400 ms). */
	dripBytes?: number;
	dripMs?: number;
	method?: string;
	path?: string;
	/**
	 * A status-before answer waits for it (e.g. until the client's next request has arrived); a
	 * stamp-at-start write is stored once it settles (its rows keep the time it was taken).
	 */
	waitFor?: Promise<unknown>;
	/** Only a request whose parsed body this accepts meets the fault. */
	match?: (body: any) => boolean;
	/** land-late: drop the connection instead of answering `status` (default 504). */
	drop?: boolean;
}

export function createSandbox(options: { rateLimits?: boolean; region?: string } = {}): Sandbox {
	return sandboxModule.createSandbox({ rateLimits: false, ...options });
}

/**
 * Puts the sandbox back to its fixture (keeping whether its limits are on), and forgets the node's
 * rate windows, the data sources Sync saw holding its key columns and the pickers' lists: they are shared by the whole
 * process, so a server that forgot its counts and its data sources meets a client that forgot them. Tests that run many scenarios in one test (fault schedules) call it
 * between scenarios.
 */
export function resetSandbox(sandbox: Sandbox): void {
	const enabled = sandbox.rateLimiter.enabled;
	sandbox.reset();
	sandbox.rateLimiter.enabled = enabled;
	forgetRateWindows();
	forgetKeyColumns();
	forgetSearchLists();
}

/**
 * Starts one sandbox for a test file (rate limits off unless asked) and resets it before each
 * test. Returns a getter, since the sandbox only exists once `beforeAll` ran.
 */
export function useSandbox(options: { rateLimits?: boolean } = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = createSandbox(options);
		await sandbox.start();
	});
	beforeEach(() => resetSandbox(sandbox!));
	afterEach(() => {
		if (sandbox) removeSandboxListeners(sandbox);
	});
	afterAll(async () => {
		await sandbox?.stop();
	});
	return () => {
		if (!sandbox) throw new Error('The sandbox is not started yet');
		return sandbox;
	};
}

export function sandboxCredential(
	sandbox: Sandbox,
	token: string = TOKENS.app,
): Record<string, ICredentialDataDecryptedObject> {
	return {
		flipletApi: {
			accessToken: token,
			region: 'custom',
			baseUrl: sandbox.url,
			fileHosts: sandbox.cdnUrl,
		},
	};
}

/** The API requests the sandbox received (control calls excluded), optionally only one path. */
export function apiRequests(sandbox: Sandbox, pathPattern?: RegExp): SandboxRequest[] {
	return sandbox.requests.filter((request) => !pathPattern || pathPattern.test(request.path));
}
