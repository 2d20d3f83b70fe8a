/**
 * A test node that runs Sync's engine (runSync, as Create or Update does) with the per-row results
 * on, through n8n-core's real engine, credentials and HTTP to the sandbox, and outputs one item per
 * input item: its RowResult (the error as its message), paired with that item.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { runSync } from '../../nodes/Fliplet/actions/entry/sync/run';
import type { RowResult } from '../../nodes/Fliplet/actions/entry/sync/rowResults';
import type { SyncSettings } from '../../nodes/Fliplet/actions/entry/sync/settings';
import {
	flipletTestNodeDescription,
	registerNodeType,
	runNode,
	sandboxCredential,
	type RunResult,
	type Sandbox,
} from '../harness';

/** Sync's settings as readSyncSettings gives them with every option left at its default. */
export function syncSettings(overrides: Partial<SyncSettings> = {}): SyncSettings {
	return {
		keyColumns: ['Email'],
		mode: 'insertAndUpdate',
		allowEmpty: false,
		ignoreKeyCase: false,
		merge: true,
		runHooks: [],
		typecast: false,
		dryRun: false,
		chunkSize: 10_000,
		outputRows: false,
		updateAll: false,
		...overrides,
	};
}

/** A RowResult as the test node outputs it: the error as its message. */
export type RowResultJson = Omit<RowResult, 'error'> & { error?: string };

let next: { dataSourceId: number; settings: SyncSettings } | undefined;

class SyncRows implements INodeType {
	description = flipletTestNodeDescription(
		'syncRows',
		'Sync Rows',
		"Runs Sync's engine with per-row results",
	);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { dataSourceId, settings } = next!;
		const items = this.getInputData();
		const run = await runSync.call(
			this,
			{ ref: String(dataSourceId), qs: {} },
			items.map((item) => item.json),
			settings,
			{ rowResults: true },
		);
		const rows = run.rows!.map(
			({ error, ...row }, item): INodeExecutionData => ({
				json: { ...row, ...(error ? { error: error.message } : {}) } as unknown as IDataObject,
				pairedItem: { item },
			}),
		);
		return [[{ ...run.items[0], json: { summary: run.items[0].json } }, ...rows]];
	}
}
registerNodeType('test.syncRows', () => new SyncRows());

/** Runs the engine over `rows` into data source `dataSourceId`: the summary, then one result per row. */
export async function syncRows(
	sandbox: Sandbox,
	dataSourceId: number,
	rows: IDataObject[],
	settings: Partial<SyncSettings> = {},
	continueOnFail = false,
): Promise<RunResult & { summary?: IDataObject; results: RowResultJson[] }> {
	next = { dataSourceId, settings: syncSettings(settings) };
	try {
		const result = await runNode({
			nodeType: 'test.syncRows',
			parameters: {},
			input: rows.map((json) => ({ json })),
			credentials: { flipletApi: sandboxCredential(sandbox).flipletApi },
			continueOnFail,
		});
		const [first, ...results] = result.json;
		const summary = first?.summary as IDataObject | undefined;
		return { ...result, summary, results: results as unknown as RowResultJson[] };
	} finally {
		next = undefined;
	}
}
