import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withRunScope } from '../transport';
import { resources } from './resources';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resourceName = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resourceName]?.operations[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of "${resourceName}" is not supported`,
		);
	}
	// Requests the operation leaves on their way (pages asked for ahead, their retries and waits)
	// end when it returns or fails: nothing leaves once its run is over.
	return [await withRunScope(this, async () => await operation.execute.call(this, items))];
}
