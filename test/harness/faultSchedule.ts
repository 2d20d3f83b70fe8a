/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
/**
 * Pieces of property-based fault schedules (fast-check): what can happen to one request at the
 * sandbox, arming a schedule of such faults and of other writers on one run's requests, telling
 * afterwards what each request did at the sandbox, and the fence that catches a request arriving
 * after its run ended.
 *
 *   const fence = useRunFence(sandbox);                      // once per test file
 *   const run = armSchedule(sandbox(), { tag, faults, writers });
 *   const result = await runNode({ ..., credentials: { flipletApi: fence.credential(tag) } });
 *   fence.end(tag);                                          // nothing with this tag may follow
 *   for (const { request, fault } of run.log) effectStayed(request, fault) ...
 *   fc.assert(fc.asyncProperty(...), scheduleParameters(150));
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import * as fc from 'fast-check';

import { sandboxCredential, type Sandbox, type SandboxFault, type SandboxRequest } from './sandbox';
import { onSandboxRequest } from './sandboxEvents';

/** What one request meets at the sandbox (a request with no fault is served). */
export type FaultKind =
	/** 429 before any work, asking to come back at once: the transport waits and re-sends. */
	| 'rate-limited'
	/** 503 before the handler ran: nothing stored. */
	| 'error-before'
	/** The handler ran (its effect stays), then 502. */
	| 'error-after'
	/** The connection is destroyed before the handler ran. */
	| 'drop-before'
	/** The handler ran, then the connection is destroyed. */
	| 'drop-after'
	/** The handler ran; its answer's body is cut mid-way. */
	| 'cut-body'
	/** The handler ran; its answer never comes, the client's timeout (TIMEOUT_SECONDS) ends it. */
	| 'timeout'
	/**
	 * A gateway's 504 at once while the server holds the write and stores it later (the sandbox's
	 * `land-late`): when the test lands it, or never. Not drawn by faultKind(): a schedule that
	 * holds a write chooses when it lands.
	 */
	| 'held';

/** The credential timeout of a run that holds a `timeout` fault; other runs keep the default. */
export const TIMEOUT_SECONDS = 0.3;

/**
 * Any fault kind; `timeout` is rare, since it costs TIMEOUT_SECONDS of real time (every other
 * fault is answered at once).
 */
export function faultKind(): fc.Arbitrary<FaultKind> {
	return fc.oneof(
		{ arbitrary: fc.constant<FaultKind>('error-after'), weight: 4 },
		{ arbitrary: fc.constant<FaultKind>('drop-after'), weight: 4 },
		{ arbitrary: fc.constant<FaultKind>('error-before'), weight: 3 },
		{ arbitrary: fc.constant<FaultKind>('drop-before'), weight: 3 },
		{ arbitrary: fc.constant<FaultKind>('cut-body'), weight: 3 },
		{ arbitrary: fc.constant<FaultKind>('rate-limited'), weight: 3 },
		{ arbitrary: fc.constant<FaultKind>('timeout'), weight: 1 },
	);
}

/** The sandbox fault of a kind. */
export function sandboxFault(kind: FaultKind): SandboxFault {
	switch (kind) {
		case 'rate-limited':
			return {
				mode: 'status-before',
				status: 429,
				body: {
					message: 'Too many requests, please slow down.',
					nextValidRequestDate: new Date().toISOString(),
				},
			};
		case 'error-before':
			return { mode: 'status-before', status: 503 };
		case 'error-after':
			return { mode: 'status-after', status: 502 };
		case 'drop-before':
			return { mode: 'drop-before' };
		case 'drop-after':
			return { mode: 'drop-after' };
		case 'cut-body':
			return { mode: 'cut-after' };
		case 'timeout':
			return { mode: 'delay', delayMs: 60_000 };
		case 'held':
			return { mode: 'land-late', status: 504 };
	}
}

/**
 * Whether the client cannot tell if a request that met this fault was stored: a server error, a
 * lost connection, a cut body, a timeout (a 429 is a refusal before any work).
 */
export function leavesOutcomeUnknown(kind: FaultKind): boolean {
	return kind !== 'rate-limited';
}

/** One request of a run, as the sandbox recorded it, and the fault it met (none: served). */
export interface ScheduledRequest {
	request: SandboxRequest;
	fault?: FaultKind;
}

/** Whether a request's handler ran at the sandbox and its effect stayed, whatever the client saw. */
export function effectStayed({ request, fault }: ScheduledRequest): boolean {
	const status = request.status;
	const ok = status !== undefined && status >= 200 && status < 300;
	switch (fault) {
		case undefined:
		case 'cut-body':
			return ok;
		case 'error-after':
			// A handler that refuses answers its own status before the fault would.
			return status === 502;
		case 'drop-after':
			return status === 0;
		case 'timeout':
			return status === undefined || ok;
		case 'held':
			// Only once it landed, and was stored.
			return request.landedLate === true && request.landedStatus === 200;
		default:
			return false;
	}
}

/**
 * The fault the client met: a fault after the handler only takes effect when the handler ran
 * through (one that refuses answers its own status first, e.g. a 404 for an entry another writer
 * deleted, and the client sees that refusal).
 */
export function faultMet(scheduled: ScheduledRequest): FaultKind | undefined {
	const { fault } = scheduled;
	if (fault === 'held') return fault;
	const after = fault === 'error-after' || fault === 'drop-after' || fault === 'cut-body';
	return after || fault === 'timeout' ? (effectStayed(scheduled) ? fault : undefined) : fault;
}

/** A fault at the `nth` request of a class (counted per run, retries included). */
export interface ScheduledFault<C extends string = string> {
	on: C;
	nth: number;
	kind: FaultKind;
}

/** Another writer acting on the sandbox state just before the `nth` request of the run. */
export interface ScheduledWriter {
	nth: number;
	act: (state: any) => void;
}

export interface ArmedRun {
	/** The run's requests in arrival order, with the fault each met. */
	log: ScheduledRequest[];
	/** Whether the schedule holds a timeout (the run's credential needs TIMEOUT_SECONDS). */
	timesOut: boolean;
	disarm(): void;
}

/**
 * Arms a schedule on the requests tagged `tag` (see RunFence.credential): `classify` names each
 * request's class (e.g. "query", "commit"); the `nth` request of a class meets the faults
 * scheduled there (exactly that request: the fault is injected for its own method and path as it
 * arrives), and before the `nth` request of the run, whatever its class, the writers scheduled
 * there act on the sandbox state. Removed by `disarm` and after the test.
 */
export function armSchedule<C extends string>(
	sandbox: Sandbox,
	options: {
		tag: string;
		classify: (request: SandboxRequest) => C;
		faults?: Array<ScheduledFault<C>>;
		writers?: ScheduledWriter[];
	},
): ArmedRun {
	const { tag, classify, faults = [], writers = [] } = options;
	const log: ScheduledRequest[] = [];
	const seen = new Map<C, number>();
	const remove = onSandboxRequest(sandbox, (request) => {
		if ((request as { tag?: string }).tag !== tag) return;
		const kind = classify(request);
		const nth = (seen.get(kind) ?? 0) + 1;
		seen.set(kind, nth);
		for (const writer of writers) if (writer.nth === log.length + 1) writer.act(sandbox.state);
		const fault = faults.find((scheduled) => scheduled.on === kind && scheduled.nth === nth)?.kind;
		if (fault) {
			const path = `^${request.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
			sandbox.injectFault({ ...sandboxFault(fault), method: request.method, path });
		}
		log.push({ request, fault });
	});
	return { log, timesOut: faults.some((fault) => fault.kind === 'timeout'), disarm: remove };
}

/**
 * The "nothing after the end" check: each run uses a credential whose base URL carries its tag
 * (the sandbox records it on every request); once a run is ended, any request with its tag that
 * reaches the sandbox is late, however much later it comes (a retry, a page asked for ahead).
 */
export class RunFence {
	private readonly ended = new Set<string>();
	private readonly late: SandboxRequest[] = [];

	constructor(private readonly sandbox: Sandbox) {
		onSandboxRequest(sandbox, (request) => {
			const tag = (request as { tag?: string }).tag;
			if (tag !== undefined && this.ended.has(tag)) this.late.push(request);
		});
	}

	/** The Fliplet API credential of the run `tag` (its timeout in seconds, if given). */
	credential(tag: string, timeoutSeconds?: number): ICredentialDataDecryptedObject {
		const { flipletApi } = sandboxCredential(this.sandbox);
		flipletApi.baseUrl = `${this.sandbox.url}/__tag/${tag}`;
		if (timeoutSeconds !== undefined) flipletApi.timeout = timeoutSeconds;
		return flipletApi;
	}

	/** The run `tag` has ended: from now on, a request of it is late. */
	end(tag: string): void {
		this.ended.add(tag);
	}

	/** The requests that reached the sandbox after their run ended, so far. */
	lateRequests(): SandboxRequest[] {
		return [...this.late];
	}
}

/**
 * fc.assert's parameters for `numRuns` schedules (FAULT_SCHEDULE_RUNS runs another number): a
 * failure shrinks to the smallest schedule, and its report gives the seed and path, which
 * FAULT_SCHEDULE_SEED and FAULT_SCHEDULE_PATH replay.
 */
export function scheduleParameters(numRuns: number): fc.Parameters<unknown> {
	const {
		FAULT_SCHEDULE_RUNS: runs,
		FAULT_SCHEDULE_SEED: seed,
		FAULT_SCHEDULE_PATH: path,
	} = process.env;
	return {
		numRuns: runs === undefined ? numRuns : Number(runs),
		...(seed === undefined ? {} : { seed: Number(seed) }),
		...(path === undefined ? {} : { path }),
	};
}
