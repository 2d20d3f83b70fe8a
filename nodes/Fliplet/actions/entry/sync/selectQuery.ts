import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { dataSourcePath, type DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { flipletApiRequest } from '../../../transport';
import { countedIn, type RequestCount } from './requestCount';

/**
 * One select query of the data source (`body` beside `type: 'select'`), each attempt counted in
 * the run's requests. It only reads, so the transport may send it again after a fault.
 */
export async function selectQuery(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	body: IDataObject,
	counter: RequestCount,
	abortSignal?: AbortSignal,
): Promise<unknown> {
	return await flipletApiRequest.call(this, {
		method: 'POST',
		path: dataSourcePath(target, 'data', 'query'),
		qs: target.qs,
		body: { type: 'select', ...body },
		idempotent: true,
		...countedIn(counter),
		...(abortSignal ? { abortSignal } : {}),
	});
}
