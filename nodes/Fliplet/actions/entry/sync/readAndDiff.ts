import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { columnsFor } from './attributes';
import {
	keyRowsPausing,
	startDiff,
	usableKeys,
	type InputRows,
	type KeyedRows,
	type SyncPlan,
} from './diff';
import { guardKeyColumns } from './keyColumnGuard';
import { keyColumnWitness, rememberKeyColumns, witnessKey } from './keyColumnMemory';
import { probeKeyColumns } from './keyColumnProbe';
import { readById } from './readEntries';
import { readSizes } from './readSizes';
import type { RequestCount } from './requestCount';
import { RowEntries } from './rowEntries';
import type { SyncSettings } from './settings';
import { canReadByKeys, keyChunks, readByKeys, type KeyLookup } from './targetedRead';
import { unsafeRows } from './unsafeRows';

export interface DiffRead {
	plan: SyncPlan;
	/** Rows refused (with Continue On Fail), by item index. */
	refused: Map<number, NodeOperationError>;
	/** Whether the data source was seen empty: by a full read, or by the probe after a targeted one. */
	sourceWasEmpty: boolean;
	/** The entries the read found holding each row's key, when asked for (`rowEntries`). */
	rowEntries?: RowEntries;
}

/**
 * Rows Sync must refuse (a field never sent). Without Continue On Fail the first stops the run;
 * with it each becomes an error item and its row is left out, except in mirror mode, where leaving
 * a row out would delete its entry: there the run is refused.
 */
async function refuseRows(
	this: IExecuteFunctions,
	rows: InputRows,
	settings: SyncSettings,
	pause: () => Promise<void>,
): Promise<Map<number, NodeOperationError>> {
	const refused = await unsafeRows.call(this, rows, pause);
	if (!refused.size) return refused;
	const [first] = refused.values();
	if (!this.continueOnFail()) throw first;
	if (settings.mode === 'mirror') {
		first.description +=
			' Mirror mode needs every row (a row left out would have its entry deleted), so the whole run was refused.';
		throw first;
	}
	for (const itemIndex of refused.keys()) rows[itemIndex] = {};
	return refused;
}

/**
 * Whether reading the data source by keys, in `chunks` requests, is clearly cheaper than reading
 * all of its `total` entries: the full read would take more than twice as many requests.
 */
export const targetedIsCheaper = (total: number, chunks: number) =>
	Math.ceil(total / readSizes.page) > 2 * chunks;

/**
 * Reads the data source and diffs it with the rows. Mirror mode reads every entry. Otherwise,
 * when the keys fit in one request of a targeted read, only the entries holding them are read
 * (a targeted read never costs more requests than the full read's first page); a larger input
 * starts the full read, and gives it up for a targeted read when the first answer's entry count
 * shows it would take clearly more requests (see targetedIsCheaper), before using any entry. Keys
 * `oneof` cannot be trusted with (see canReadByKeys) always get the full read. In the full read
 * the rows are checked and keyed while the first pages travel (see readById), and each page is
 * diffed as it arrives. A targeted read that found nothing to update is followed by the probe of
 * the key columns (see probeKeyColumns), which the full read's key-column guard stands for, unless
 * it found the entry a read of this process lately saw carrying them (see keyColumnMemory).
 */
export async function readAndDiff(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	rows: InputRows,
	settings: SyncSettings,
	counter: RequestCount,
	{ rowEntries: noteRowEntries = false }: { rowEntries?: boolean } = {},
): Promise<DiffRead> {
	const rowEntries = noteRowEntries ? new RowEntries(rows.length) : undefined;
	let refused = new Map<number, NodeOperationError>();
	const keyRows = async (pause: () => Promise<void>) => {
		refused = await refuseRows.call(this, rows, settings, pause);
		return await keyRowsPausing(rows, settings, pause);
	};
	const columns = columnsFor(rows, settings);
	const mayTarget = settings.mode !== 'mirror' && readSizes.targetedKeys > 0;
	const lookupOf = (keyed: KeyedRows): KeyLookup | undefined => {
		if (!mayTarget) return undefined;
		const lookup = { keyColumns: settings.keyColumns, keys: usableKeys(keyed), columns };
		return canReadByKeys(lookup) ? lookup : undefined;
	};
	const diffOf = (keyed: KeyedRows) => {
		// Per-row results note which entries hold each row's key as the diff keys them.
		const diff = startDiff(rows, settings, keyed, rowEntries && rowEntries.add.bind(rowEntries));
		// Key-column guard: a read where no entry has a key column is refused, never acted on.
		return { diff, guard: guardKeyColumns(settings.keyColumns, diff.visit) };
	};
	const { keyColumns, ignoreKeyCase } = settings;
	const remember = async (data: IDataObject | undefined) => {
		const key = data && witnessKey(data, keyColumns, ignoreKeyCase);
		if (key !== undefined) await rememberKeyColumns.call(this, target, keyColumns, key);
	};
	const targeted = async (lookup: KeyLookup, { diff, guard }: ReturnType<typeof diffOf>) => {
		// Beside the rows' keys, the key of an entry a read of this process lately saw carrying the
		// key columns, when it takes no more requests: found, it shows they are still there.
		const witness = await keyColumnWitness.call(this, target, keyColumns);
		const withWitness =
			witness === undefined || lookup.keys.includes(witness)
				? lookup
				: { ...lookup, keys: [...lookup.keys, witness] };
		const fits = keyChunks(withWitness.keys).length === keyChunks(lookup.keys).length;
		await readByKeys.call(this, target, fits ? withWitness : lookup, guard.visit, counter);
		guard.refuseKeylessRead.call(this);
		await remember(guard.keyedEntry());
		const plan = diff.finish();
		// Nothing found, not even the witness: a misspelt (or renamed) key column would insert every
		// row again.
		const look = !guard.entriesRead() && plan.inserts.length > 0;
		if (!look) return { plan, refused, sourceWasEmpty: false, rowEntries };
		const probe = await probeKeyColumns.call(this, target, keyColumns, counter);
		await remember(probe.carrying);
		return { plan, refused, sourceWasEmpty: probe.empty, rowEntries };
	};

	let keyed: KeyedRows | undefined;
	let lookup: KeyLookup | undefined;
	if (mayTarget && rows.length <= readSizes.targetedKeys) {
		keyed = await keyRows(async () => {});
		lookup = lookupOf(keyed);
		if (lookup && keyChunks(lookup.keys).length <= 1) return await targeted(lookup, diffOf(keyed));
	}
	let diffing: ReturnType<typeof diffOf> | undefined;
	const prepare = async (pause: () => Promise<void>) => {
		keyed ??= await keyRows(pause);
		diffing = diffOf(keyed);
		return diffing.guard.visit;
	};
	// The keys of a targeted read are only listed when the entry count says it may be cheaper: a
	// targeted read takes at least a request per `targetedKeys` keys.
	const goOn = (total: number | undefined) => {
		if (!mayTarget || total === undefined) return true;
		const fewestChunks = Math.ceil(keyed!.index.size / readSizes.targetedKeys);
		if (!targetedIsCheaper(total, fewestChunks)) return true;
		lookup ??= lookupOf(keyed!);
		return !lookup || !targetedIsCheaper(total, keyChunks(lookup.keys).length);
	};
	const read = { columns, expected: rows.length, prepare, goOn };
	if (!(await readById.call(this, target, read, counter))) return await targeted(lookup!, diffing!);
	diffing!.guard.refuseKeylessRead.call(this);
	await remember(diffing!.guard.keyedEntry());
	const plan = diffing!.diff.finish();
	return { plan, refused, sourceWasEmpty: plan.existingCount === 0, rowEntries };
}
