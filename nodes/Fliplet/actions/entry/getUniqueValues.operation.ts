import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { columnList } from '../../helpers/commaList';
import { dataSourcePath, getDataSourceTarget } from '../../helpers/dataSourceTarget';
import { mapItems } from '../../helpers/mapItems';
import { objectFrom } from '../../helpers/responses';
import { flipletApiRequest } from '../../transport';
import { columnPicker } from '../columnPicker.descriptions';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';

const properties: INodeProperties[] = [
	dataSourceLocator(),
	columnPicker({
		displayName: 'Columns',
		name: 'uniqueColumns',
		multiple: true,
		required: true,
		description:
			'Columns whose distinct values you want. Nested values use a dot, e.g. Address.city.',
	}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['getUniqueValues'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const columns = columnList(this.getNodeParameter('uniqueColumns', itemIndex, []));
		if (!columns.length) {
			throw new NodeOperationError(this.getNode(), 'No column given', {
				itemIndex,
				description: 'Give at least one column name, e.g. Department.',
			});
		}
		const withComma = columns.find((column) => column.includes(','));
		if (withComma !== undefined) {
			throw new NodeOperationError(
				this.getNode(),
				`The column "${withComma}" has a comma in its name`,
				{
					itemIndex,
					description:
						'The API takes the columns of this request as one comma-separated list, so it would read that name as several columns. Nothing was sent. Use Get Many with Distinct and Columns to Return instead.',
				},
			);
		}
		const body = await flipletApiRequest.call(this, {
			method: 'GET',
			path: dataSourcePath(target, 'indexes', columns.join(',')),
			qs: target.qs,
			itemIndex,
		});
		return objectFrom(body, 'indexes') as IDataObject;
	});
}
