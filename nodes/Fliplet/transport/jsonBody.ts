import type { IDataObject } from 'n8n-workflow';

import { mayHoldUnsafeKey } from './unsafeKeys';

/**
 * A JSON request body serialized once: sent as these bytes (retries and redirects re-send them),
 * and walked for unsafe keys only when its text names one. A caller may build it ahead of its
 * request, e.g. the next commit of a large Sync while the one before is on its way.
 */
export class JsonBody {
	readonly bytes: Buffer;
	readonly mayHoldUnsafeKey: boolean;

	constructor(readonly value: IDataObject | IDataObject[]) {
		const text = JSON.stringify(value);
		this.mayHoldUnsafeKey = mayHoldUnsafeKey(text);
		this.bytes = Buffer.from(text);
	}
}
