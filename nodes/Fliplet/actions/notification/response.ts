import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../helpers/isObject';

/**
 * The notification in a create or update response: `{notification: {...}}` (what Fliplet's own
 * editor reads) or the notification itself (recognised by its `id`). Any other answer is not taken
 * for a notification: `fallback` (what the node sent) is returned instead.
 */
export function notificationFrom(body: unknown, fallback: IDataObject): IDataObject {
	if (isObject(body) && isObject(body.notification)) return body.notification;
	if (isObject(body) && body.id !== undefined) return body;
	return fallback;
}

/**
 * The created notifications of a batch response, in request order, when it lists one per
 * notification sent (`{notifications: [...]}` or a bare list); otherwise undefined, so no record is
 * paired with the wrong item.
 */
export function createdList(body: unknown, count: number): IDataObject[] | undefined {
	const list = Array.isArray(body) ? body : isObject(body) ? body.notifications : undefined;
	if (!Array.isArray(list) || list.length !== count || !list.every(isObject)) return undefined;
	return list as IDataObject[];
}
