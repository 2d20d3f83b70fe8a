/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IDataObject } from 'n8n-workflow';

import {
	apiRequests,
	callSandbox,
	TOKENS,
	faultNthRequest,
	onSandboxRequest,
	runNode,
	sandboxCredential,
	type RunResult,
	type Sandbox,
} from '../harness';

import { readSizes } from '../../nodes/Fliplet/actions/entry/sync/readSizes';

// The sandbox's store, to act as another writer inside the sandbox between two requests.
export const store = require('../../sandbox/dataSources/store');

/** Another writer inserts an entry holding `data` (given the sandbox's state, e.g. in an interleave). */
export function otherWriterInserts(state: any, dataSourceId: number, data: IDataObject): void {
	const dataSource = state.dataSources.find((ds: any) => ds.id === dataSourceId);
	store.appendEntries(state, dataSourceId, [store.newEntry(state, dataSource, data)]);
}

/** Keys held by more than one entry. */
export function duplicateKeys(sandbox: Sandbox, dataSourceId: number, column = 'Email'): string[] {
	const seen = new Map<string, number>();
	for (const entry of storedEntries(sandbox, dataSourceId)) {
		const key = String(entry.data[column]);
		seen.set(key, (seen.get(key) ?? 0) + 1);
	}
	return [...seen].filter(([, count]) => count > 1).map(([key]) => key);
}

/** Calls the sandbox as a client would (to set up a data source), then forgets those requests. */
async function call(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<any> {
	const response = await callSandbox(sandbox, method, path, body);
	if (response.status >= 400) {
		throw new Error(
			`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`,
		);
	}
	return response.body;
}

/** A new data source of app 11 holding `rows`; returns its id. The request log starts empty. */
export async function dataSourceWith(
	sandbox: Sandbox,
	rows: IDataObject[],
	name = 'Sync Target',
): Promise<number> {
	const { dataSource } = await call(sandbox, 'POST', '/v1/data-sources?appId=11', { name });
	if (rows.length) {
		await call(sandbox, 'POST', `/v1/data-sources/${dataSource.id}/commit`, {
			entries: rows.map((data) => ({ data })),
			append: true,
		});
	}
	sandbox.requests.length = 0;
	return dataSource.id as number;
}

/**
 * A new data source of app 11 holding `count` entries made by `rowOf`, appended to the sandbox's
 * store directly (a hundred thousand entries would be a slow request). The request log starts empty.
 */
export async function seededDataSource(
	sandbox: Sandbox,
	count: number,
	rowOf: (n: number) => IDataObject,
	name = 'Sync Target',
): Promise<number> {
	const id = await dataSourceWith(sandbox, [], name);
	const dataSource = sandbox.state.dataSources.find((ds: any) => ds.id === id);
	const entries = Array.from({ length: count }, (_, n) =>
		store.newEntry(sandbox.state, dataSource, rowOf(n)),
	);
	store.appendEntries(sandbox.state, id, entries);
	return id;
}

/** The entries now stored, as `{id, data}` in id order. */
export function storedEntries(
	sandbox: Sandbox,
	dataSourceId: number,
): Array<{ id: number; data: IDataObject }> {
	return (sandbox.state.entries as Array<{ id: number; dataSourceId: number; data: IDataObject }>)
		.filter((entry) => entry.dataSourceId === dataSourceId)
		.map(({ id, data }) => ({ id, data }))
		.sort((a, b) => a.id - b.id);
}

export const storedData = (sandbox: Sandbox, dataSourceId: number) =>
	storedEntries(sandbox, dataSourceId).map((entry) => entry.data);

export const commitsOf = (sandbox: Sandbox) => apiRequests(sandbox, /\/commit$/);

/**
 * Resolves when the n-th commit has arrived, or after `fallbackMs` if it never does (a Sync that
 * waits for an answer before sending it): the tests then see it missing.
 */
export function commitArrival(sandbox: Sandbox, n: number, fallbackMs = 2000): Promise<void> {
	return new Promise((resolve) => {
		let seen = 0;
		const timer = setTimeout(resolve, fallbackMs);
		onSandboxRequest(sandbox, (request) => {
			if (request.method !== 'POST' || !/\/commit$/.test(request.path) || ++seen !== n) return;
			clearTimeout(timer);
			resolve();
		});
	});
}
export const queriesOf = (sandbox: Sandbox) => apiRequests(sandbox, /\/data\/query$/);

export async function runSync(
	sandbox: Sandbox,
	dataSourceId: number,
	rows: IDataObject[],
	parameters: IDataObject = {},
	options: { continueOnFail?: boolean; timeoutSeconds?: number } = {},
): Promise<RunResult> {
	const flipletApi = sandboxCredential(sandbox).flipletApi;
	if (options.timeoutSeconds !== undefined) flipletApi.timeout = options.timeoutSeconds;
	return await runNode({
		parameters: {
			resource: 'entry',
			operation: 'sync',
			dataSource: { __rl: true, mode: 'id', value: String(dataSourceId) },
			keyColumns: 'Email',
			...parameters,
		} as any,
		input: rows.map((json) => ({ json })),
		credentials: { flipletApi },
		continueOnFail: options.continueOnFail,
	});
}

/**
 * Makes the `n`-th commit the sandbox receives fail with `status` before it is processed
 * (`count` times), by arming the fault when that request arrives.
 */
export function failNthCommit(sandbox: Sandbox, n: number, status = 500, count = 1): void {
	faultNthRequest(sandbox, { method: 'POST', path: /\/commit$/ }, n, {
		mode: 'status-before',
		status,
		count,
	});
}

/** The two ways Sync reads a data source outside mirror mode (docs/sync.md, "How a run works"). */
export const READ_PATHS = ['targeted', 'full'] as const;
export type ReadPath = (typeof READ_PATHS)[number];

/**
 * Makes the tests of the calling `describe` read the data source by `path`: a small input is read
 * by key (`targeted`, the default), or every entry is read (`full`: no key per targeted request,
 * so the main read never reads by key; the read of a lost commit's keys still does).
 */
export function useReadPath(path: ReadPath): void {
	const { targetedKeys } = readSizes;
	beforeEach(() => {
		readSizes.targetedKeys = path === 'full' ? 0 : targetedKeys;
	});
	afterEach(() => {
		readSizes.targetedKeys = targetedKeys;
	});
}

/** Scales Sync's read sizes (see readSizes) for the tests of the calling `describe`. */
export function useReadSizes(sizes: Partial<typeof readSizes>): void {
	const saved = { ...readSizes };
	beforeEach(() => Object.assign(readSizes, sizes));
	afterEach(() => Object.assign(readSizes, saved));
}

/** Gives the data source `hooks` (as an organization admin would), then forgets that request. */
export async function setDataSourceHooks(
	sandbox: Sandbox,
	dataSourceId: number,
	hooks: IDataObject[],
): Promise<void> {
	const answer = await callSandbox(
		sandbox,
		'PUT',
		`/v1/data-sources/${dataSourceId}`,
		{ hooks },
		TOKENS.org,
	);
	if (answer.status !== 200) throw new Error(`Setting hooks answered ${answer.status}`);
	sandbox.requests.length = 0;
}
