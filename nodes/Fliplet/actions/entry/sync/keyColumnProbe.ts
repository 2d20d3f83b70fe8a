import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { isObject } from '../../../helpers/isObject';
import { listFrom } from '../../../helpers/responses';
import { keylessReadError } from './keyColumnGuard';
import type { RequestCount } from './requestCount';
import { selectQuery } from './selectQuery';

/** One query of the data source for at most one entry; its entries and reported total. */
async function selectOne(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	where: IDataObject | undefined,
	counter: RequestCount,
): Promise<{ entries: IDataObject[]; total?: number }> {
	const query = {
		...(where ? { where } : {}),
		order: [['id', 'ASC']],
		limit: 1,
		includePagination: true,
	};
	const body = await selectQuery.call(this, target, query, counter);
	const total = (body as { pagination?: { total?: unknown } } | undefined)?.pagination?.total;
	return {
		entries: listFrom(this.getNode(), body, 'entries'),
		...(typeof total === 'number' ? { total } : {}),
	};
}

/**
 * The key-column guard of a targeted read that found no entry (see guardKeyColumns): every key
 * may be new, or the key column misspelt, and only the second must stop the run before it
 * inserts every row again. One query reads the data source's first entry: none means the data
 * source is empty (returned: true, so the check after inserting can count it whole); one carrying
 * a key column settles it. Otherwise one more asks for any entry carrying a key column (`$exists`,
 * so an empty value counts); when there is none, the run is refused as after a full read.
 */
export async function probeKeyColumns(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	keyColumns: string[],
	counter: RequestCount,
): Promise<{ empty: boolean }> {
	const first = await selectOne.call(this, target, undefined, counter);
	if (!first.entries.length) return { empty: true };
	const carries = (entry: IDataObject) =>
		isObject(entry.data) &&
		keyColumns.some((column) => (entry.data as IDataObject)[column] !== undefined);
	if (first.entries.some(carries)) return { empty: false };
	const exists = keyColumns.map((column) => ({ [column]: { $exists: true } }));
	const where = exists.length === 1 ? exists[0] : { $or: exists };
	if ((await selectOne.call(this, target, where, counter)).entries.length) return { empty: false };
	throw keylessReadError(this.getNode(), keyColumns, Math.max(first.total ?? 0, 1));
}
