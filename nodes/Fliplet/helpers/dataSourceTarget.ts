import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiPath, isUnsendablePathSegment } from '../transport';
import { readLocator, type LocatorContext } from './locators';
import { dataSourceIdInUrl } from './studioUrls';

/** What "By URL" of a data source takes, for its errors. */
const DATA_SOURCE_URL_HELP =
	'Paste an address that holds the data source\'s ID after "data-sources/" (e.g. https://api.fliplet.com/v1/data-sources/123) or as dataSourceId=123, or pick the data source from the list. The address of an app in Fliplet Studio names the app only.';

/** How a data source is named in paths: its id, or its name (with `dsn` when the name is all digits). */
export interface DataSourceTarget {
	/** The path segment: the id, or the name (URL-encoded by `apiPath`). */
	ref: string;
	/** Query flags every request to this data source needs (`dsn` for an all-digit name). */
	qs: IDataObject;
}

/**
 * Reads the data source locator. "By Name" addresses the data source by its name directly, which
 * the API accepts in every path; a name made only of digits gets `?dsn=true` so it is not read as
 * an id.
 */
export function getDataSourceTarget(
	this: LocatorContext,
	itemIndex: number,
	parameterName = 'dataSource',
): DataSourceTarget {
	const { mode, value } = readLocator.call(this, parameterName, itemIndex);
	if (!value) {
		throw new NodeOperationError(this.getNode(), 'No data source given', {
			itemIndex,
			description: 'Pick a data source from the list, or give its ID or its exact name.',
		});
	}
	if (mode === 'name') {
		if (isUnsendablePathSegment(value)) {
			throw new NodeOperationError(
				this.getNode(),
				`Data source: the name "${value}" cannot be used to address it`,
				{
					itemIndex,
					description:
						'The API finds a data source by name in the request address, and web addresses read "." and ".." as folder steps (also when encoded as %2E), so the request would reach another record. Nothing was sent. Pick the data source from the list or give its ID, or rename it in Fliplet.',
				},
			);
		}
		return { ref: value, qs: /^\d+$/.test(value) ? { dsn: 'true' } : {} };
	}
	if (mode === 'url') {
		const id = dataSourceIdInUrl(value);
		if (id === undefined) {
			throw new NodeOperationError(this.getNode(), 'Data source: this URL names no data source', {
				itemIndex,
				description: DATA_SOURCE_URL_HELP,
			});
		}
		return { ref: String(id), qs: {} };
	}
	if (!/^\d+$/.test(value)) {
		throw new NodeOperationError(this.getNode(), `Data source: "${value}" is not an ID`, {
			itemIndex,
			description:
				'A data source ID is a whole number (e.g. 123). To use its name, switch the field to "By Name".',
		});
	}
	return { ref: value, qs: {} };
}

/** `/v1/data-sources/<ref>/...segments`, every segment URL-encoded. */
export function dataSourcePath(
	target: DataSourceTarget,
	...segments: Array<string | number>
): string {
	return apiPath('data-sources', target.ref, ...segments);
}
