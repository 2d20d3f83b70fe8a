import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../helpers/isObject';

/**
 * One flat row per app or user, for charts and sheets: each `stats.<name>` of `{count,
 * previousPeriodCount}` becomes `<name>` and `<name>PreviousPeriod` next to the record's fields.
 */
export function flattenStats(record: IDataObject): IDataObject {
	const { stats, ...fields } = record;
	const row: IDataObject = { ...fields };
	if (!isObject(stats)) return row;
	for (const [name, value] of Object.entries(stats)) {
		if (!isObject(value)) {
			row[name] = value;
			continue;
		}
		row[name] = value.count ?? null;
		if ('previousPeriodCount' in value) row[`${name}PreviousPeriod`] = value.previousPeriodCount;
	}
	return row;
}
