import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { dataSourcePath, type DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { flipletApiRequest } from '../../../transport';

/**
 * One select query of the data source (`body` beside `type: 'select'`), counted in the run's
 * requests. It only reads, so the transport may send it again after a fault.
 */
export async function selectQuery(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	body: IDataObject,
	counter: { requests: number },
	abortSignal?: AbortSignal,
): Promise<unknown> {
	counter.requests++;
	return await flipletApiRequest.call(this, {
		method: 'POST',
		path: dataSourcePath(target, 'data', 'query'),
		qs: target.qs,
		body: { type: 'select', ...body },
		idempotent: true,
		...(abortSignal ? { abortSignal } : {}),
	});
}
