import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiPath, flipletApiRequest } from '../transport';
import type { PreparedItem } from './batchSend';

/**
 * Posts prepared Communicate messages: the first alone to `communicate/<channel>`, or all of them
 * under `batchKey` to `communicate/<channel>/batch`. Never retried: a message could go out twice.
 */
export async function postCommunicate(
	this: IExecuteFunctions,
	channel: string,
	batchKey: string,
	batched: boolean,
	group: Array<PreparedItem<IDataObject>>,
): Promise<void> {
	const itemIndex = group[0].itemIndex;
	await flipletApiRequest.call(
		this,
		batched
			? {
					method: 'POST',
					path: apiPath('communicate', channel, 'batch'),
					body: { [batchKey]: group.map((entry) => entry.payload) },
					itemIndex,
				}
			: {
					method: 'POST',
					path: apiPath('communicate', channel),
					body: group[0].payload,
					itemIndex,
				},
	);
}
