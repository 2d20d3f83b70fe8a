import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { spreadsheetRow } from './rows';

/** Emits `count` spreadsheet rows, as a Google Sheets or CSV node would. */
export class BenchRows implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bench Rows',
		name: 'benchRows',
		group: ['input'],
		version: 1,
		description: 'Emits generated spreadsheet rows',
		defaults: { name: 'Rows' },
		inputs: [],
		outputs: ['main'],
		properties: [
			{ displayName: 'Count', name: 'count', type: 'number', default: 0 },
			{ displayName: 'Change Every', name: 'changeEvery', type: 'number', default: 0 },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const count = this.getNodeParameter('count', 0) as number;
		const changeEvery = this.getNodeParameter('changeEvery', 0) as number;
		const items: INodeExecutionData[] = new Array(count);
		for (let i = 0; i < count; i++) items[i] = { json: spreadsheetRow(i, changeEvery) };
		return [items];
	}
}
