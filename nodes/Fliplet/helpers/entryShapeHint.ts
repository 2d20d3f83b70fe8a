import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { ignoredFields } from './dataSourceEntry';

/** An item shaped as the node outputs an entry: its columns under `data`, beside its ID. */
function hasEntryShape(json: IDataObject): boolean {
	const data = json.data;
	return (
		data !== null &&
		typeof data === 'object' &&
		!Array.isArray(data) &&
		'id' in json &&
		'dataSourceId' in json
	);
}

/**
 * Map Automatically writes every field of an item as a column, so an entry read by Get or Get Many
 * and written as it is stores its ID, dates and a `data` column holding an object. That may be
 * wanted (it is written as given), so the run goes on, with a hint in the editor's output pane
 * saying how to copy the columns instead. No hint when Ignore Fields already leaves `data` out.
 */
export function hintEntryShapedItems(this: IExecuteFunctions, items: INodeExecutionData[]): void {
	if (this.getNodeParameter('columns.mappingMode', 0, 'defineBelow') !== 'autoMapInputData') return;
	if (ignoredFields.call(this, 0).has('data')) return;
	const shaped = items.filter((item) => hasEntryShape(item.json)).length;
	if (!shaped) return;
	const which =
		shaped === items.length
			? 'The input items are'
			: `${shaped} of ${items.length} input items are`;
	this.addExecutionHints({
		message: `${which} entries as Get and Get Many output them (ID and dataSourceId, with their columns under data), so Map Automatically writes those fields as columns. To copy the columns, set Output to Columns Only in the node that read the entries, or map the fields under data with Map Each Column Manually.`,
		type: 'warning',
		location: 'outputPane',
	});
}
