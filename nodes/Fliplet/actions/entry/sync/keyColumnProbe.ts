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
 * a key column settles it (returned as `carrying`). Otherwise one more asks for any entry carrying a key column (`$exists`,
 * so an empty value counts); when there is none, the run is refused as after a full read.
 */
export async function probeKeyColumns(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	keyColumns: string[],
	counter: RequestCount,
): Promise<{ empty: boolean; carrying?: IDataObject }> {
	const first = await selectOne.call(this, target, undefined, counter);
	if (!first.entries.length) return { empty: true };
	const dataOf = (entry: IDataObject) => (isObject(entry.data) ? (entry.data as IDataObject) : {});
	const carrying = (entries: IDataObject[]) =>
		entries.map(dataOf).find((data) => keyColumns.some((column) => data[column] !== undefined));
	const seen = carrying(first.entries);
	if (seen) return { empty: false, carrying: seen };
	const exists = keyColumns.map((column) => ({ [column]: { $exists: true } }));
	const where = exists.length === 1 ? exists[0] : { $or: exists };
	const any = carrying((await selectOne.call(this, target, where, counter)).entries);
	if (any) return { empty: false, carrying: any };
	throw keylessReadError(this.getNode(), keyColumns, Math.max(first.total ?? 0, 1));
}
