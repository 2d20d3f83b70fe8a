import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

export type OperationExecute = (
	this: IExecuteFunctions,
	items: INodeExecutionData[],
) => Promise<INodeExecutionData[]>;

/** What every `<operation>.operation.ts` exports. */
export interface OperationModule {
	description: INodeProperties[];
	execute: OperationExecute;
}

/** What every resource's `index.ts` exports: its fields (operation picker first) and operations. */
export interface ResourceModule {
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}
