import type { IExecuteFunctions } from 'n8n-workflow';

import { COLUMN_TYPE_SAMPLE } from '../../../helpers/columnTypes';
import type { DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { isObject } from '../../../helpers/isObject';
import { listFrom } from '../../../helpers/responses';
import { planColumnTypes, typeNewValues, type SyncPlan } from './diff';
import { selectQuery } from './selectQuery';
import { hasUntypedText } from './typecast';

/**
 * The diff types new values by the entries its read met (see planColumnTypes). A read that met
 * none (a targeted read of keys that are all new) tells nothing of a data source that is not
 * empty: when a new row holds text a column of numbers or booleans would store typed ("34",
 * "true") in a column no known type covers, one query reads the first entries, as the column
 * mapper samples them, and the new values are typed by what they hold. Only then: a run without
 * such text, or one whose read met entries, sends nothing more.
 */
export async function lookUpColumnTypes(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	plan: SyncPlan,
	sourceWasEmpty: boolean,
	counter: { requests: number },
): Promise<void> {
	if (plan.existingCount > 0 || sourceWasEmpty) return;
	const known = plan.columnTypes;
	if (!plan.inserts.some((itemIndex) => hasUntypedText(plan.rows[itemIndex], known))) return;
	const body = await selectQuery.call(
		this,
		target,
		{ order: [['id', 'ASC']], limit: COLUMN_TYPE_SAMPLE },
		counter,
	);
	const sample = listFrom(this.getNode(), body, 'entries')
		.map((entry) => entry.data)
		.filter(isObject);
	typeNewValues(plan, planColumnTypes(sample, known));
}
