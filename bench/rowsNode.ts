/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { spreadsheetRow } from './rows';

const parsedRow = (i: number, changeEvery: number): IDataObject =>
	JSON.parse(JSON.stringify(spreadsheetRow(i, changeEvery))) as IDataObject;

/**
 * Emits `count` spreadsheet rows (from row `start`) as nodes that read rows from an API or a database hold them:
 * parsed from JSON text, so their strings are flat. Rows built with template literals would be
 * V8 rope strings, about 0.4× the input JSON larger than rows n8n gets from such a source.
 */
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
			{ displayName: 'Start', name: 'start', type: 'number', default: 0 },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const count = this.getNodeParameter('count', 0) as number;
		const changeEvery = this.getNodeParameter('changeEvery', 0) as number;
		const start = this.getNodeParameter('start', 0, 0) as number;
		const items: INodeExecutionData[] = new Array(count);
		for (let i = 0; i < count; i++) items[i] = { json: parsedRow(start + i, changeEvery) };
		return [items];
	}
}

/** The "Rows" node of a benchmark workflow (type `bench.rows`, registered by engine.ts). */
export function rowsInput(rows: { count: number; changeEvery: number }): INode {
	return {
		id: 'rows',
		name: 'Rows',
		type: 'bench.rows',
		typeVersion: 1,
		position: [0, 0],
		parameters: rows,
	};
}
