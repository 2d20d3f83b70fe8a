import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { dataSourcePath, type DataSourceTarget } from '../Fliplet/helpers/dataSourceTarget';
import { isObject } from '../Fliplet/helpers/isObject';
import { objectFrom } from '../Fliplet/helpers/responses';
import { flipletApiRequest } from '../Fliplet/transport';

export interface DataSourceHooks {
	id: number;
	hooks: IDataObject[];
	/** When the data source last changed, by the platform's clock (as it answered it). */
	updatedAt?: unknown;
}

/** Reads a data source's id and its hooks as stored (every hook, of every kind). */
export async function readHooks(
	this: IHookFunctions,
	target: DataSourceTarget,
): Promise<DataSourceHooks> {
	const body = await flipletApiRequest.call(this, {
		method: 'GET',
		path: dataSourcePath(target),
		qs: target.qs,
	});
	const dataSource = objectFrom(body, 'dataSource');
	const id = Number(dataSource.id);
	if (!Number.isInteger(id)) {
		throw new NodeOperationError(this.getNode(), 'Fliplet answered without a data source', {
			description: 'Check the data source picked in the trigger, then publish again.',
		});
	}
	const hooks = Array.isArray(dataSource.hooks) ? dataSource.hooks.filter(isObject) : [];
	return { id, hooks: hooks as IDataObject[], updatedAt: dataSource.updatedAt };
}

/**
 * Writes a data source's whole hook list through the data-source update call (public docs: SPEC
 * documents that call for name and columns only). Sending the same list twice leaves the same
 * list, so it may be retried.
 */
export async function writeHooks(
	this: IHookFunctions,
	dataSourceId: number,
	hooks: IDataObject[],
): Promise<void> {
	await flipletApiRequest.call(this, {
		method: 'PUT',
		path: dataSourcePath({ ref: String(dataSourceId), qs: {} }),
		body: { hooks },
		idempotent: true,
	});
}
