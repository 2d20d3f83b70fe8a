import type { IDataObject } from 'n8n-workflow';

import { apiPath, flipletApiRequest, type FlipletContext } from '../transport';
import { listFrom } from './responses';

/**
 * Fliplet Studio's trash (not in the public docs): each deleted data source with its `deletedAt`,
 * until it is restored or removed for good. The path keeps the trailing slash Studio's data source
 * editor calls it with (`v1/data-sources/deleted/`): a server may know only that form, and read
 * `deleted` without it as the name of a data source.
 */
export async function listDeletedDataSources(
	this: FlipletContext,
	qs: IDataObject = {},
	itemIndex?: number,
): Promise<IDataObject[]> {
	const body = await flipletApiRequest.call(this, {
		method: 'GET',
		path: `${apiPath('data-sources', 'deleted')}/`,
		qs,
		itemIndex,
	});
	return listFrom(this.getNode(), body, 'dataSources', itemIndex);
}
