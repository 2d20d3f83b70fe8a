/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

export interface TestBinary {
	/** Base64 content. */
	data: string;
	fileName?: string;
	mimeType?: string;
}

export interface TestItem {
	json: IDataObject;
	binary?: Record<string, TestBinary>;
}

/**
 * Emits the items of its `items` parameter (a JSON string), storing any binary through n8n's own
 * binary helpers, so it lands wherever the binary data mode puts it (inline or on disk).
 */
export class TestInput implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Input',
		name: 'testInput',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items for tests',
		defaults: { name: 'Input' },
		inputs: [],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'string', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as TestItem[];
		const output: INodeExecutionData[] = [];
		for (const item of items) {
			const entry: INodeExecutionData = { json: item.json };
			if (item.binary) {
				const binary: IBinaryKeyData = {};
				for (const [key, value] of Object.entries(item.binary)) {
					binary[key] = await this.helpers.prepareBinaryData(
						Buffer.from(value.data, 'base64'),
						value.fileName,
						value.mimeType,
					);
				}
				entry.binary = binary;
			}
			output.push(entry);
		}
		return [output];
	}
}
