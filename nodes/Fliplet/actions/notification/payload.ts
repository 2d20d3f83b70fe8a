import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { refuseItem } from '../../helpers/refuseItem';
import { parseInTimeZone } from './zonedDate';
import { splitList } from '../../helpers/commaList';
import { isObject } from '../../helpers/isObject';

/** A JSON field's value: an object/array from an expression, or parsed text. */
export function jsonField(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): unknown {
	const raw = context.getNodeParameter(name, itemIndex, '') as unknown;
	if (typeof raw !== 'string') return raw;
	if (!raw.trim()) return undefined;
	try {
		return jsonParse(raw);
	} catch {
		refuseItem(
			context,
			itemIndex,
			`"${label}" is not valid JSON`,
			'Fix the JSON (double-quoted keys and strings), or use an expression that returns an object.',
		);
	}
}

/** A date field as epoch milliseconds (a time without offset is in the workflow's time zone). */
function dateField(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const at = parseInTimeZone(String(value), context.getTimezone());
	if (Number.isNaN(at))
		refuseItem(
			context,
			itemIndex,
			`"${label}" is not a date: "${String(value)}"`,
			'Give an ISO 8601 date-time, e.g. 2030-01-31T09:00:00Z.',
		);
	return at;
}

/** The `data` object from Title, Message and Additional Data; undefined when all are empty. */
export function readData(context: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
	const extra = jsonField(context, itemIndex, 'additionalData', 'Additional Data (JSON)') ?? {};
	if (!isObject(extra))
		refuseItem(
			context,
			itemIndex,
			'"Additional Data (JSON)" must be a JSON object',
			'Write an object such as {"link": "https://example.com"}.',
		);
	const data: IDataObject = { ...extra };
	const title = context.getNodeParameter('title', itemIndex, '') as string;
	const message = context.getNodeParameter('message', itemIndex, '') as string;
	if (title) data.title = title;
	if (message) data.message = message;
	return Object.keys(data).length ? data : undefined;
}

/** The scope list; [] for everyone; undefined to leave it out (keep current, or broadcast). */
export function readScope(
	context: IExecuteFunctions,
	itemIndex: number,
	everyone: IDataObject[] | undefined,
) {
	const mode = context.getNodeParameter('scopeMode', itemIndex, 'everyone') as string;
	if (mode === 'keep') return undefined;
	if (mode === 'everyone') return everyone;
	if (mode === 'json') {
		const scope = jsonField(context, itemIndex, 'scopeJson', 'Scope (JSON)');
		const list = Array.isArray(scope) ? scope : [scope];
		if (!list.length || !list.every(isObject)) {
			refuseItem(
				context,
				itemIndex,
				'"Scope (JSON)" must be an object or an array of objects',
				'Give one scope object, or an array of them, mapping a user column to the value(s) to reach, e.g. [{"Department": {"$in": ["Sales", "Support"]}}].',
			);
		}
		return list as IDataObject[];
	}
	const conditions =
		(context.getNodeParameter('scopeConditions.condition', itemIndex, []) as Array<{
			column?: string;
			values?: string;
		}>) ?? [];
	const scope: IDataObject = {};
	for (const { column = '', values = '' } of conditions) {
		const list = splitList(values);
		if (!column.trim() || !list.length) {
			refuseItem(
				context,
				itemIndex,
				'an audience condition has no column or no value',
				'Give each condition a column name and at least one value.',
			);
		}
		scope[column.trim()] = list.length === 1 ? list[0] : { $in: list };
	}
	if (!Object.keys(scope).length)
		refuseItem(
			context,
			itemIndex,
			'"Matching Users" has no condition',
			'Add a condition, or choose Everyone.',
		);
	return [scope];
}

/** Status and, for scheduled, its future date in epoch milliseconds. */
export function readStatus(
	context: IExecuteFunctions,
	itemIndex: number,
): { status: string; orderAt?: number } {
	const status = context.getNodeParameter('status', itemIndex) as string;
	if (status !== 'scheduled') return { status };
	const orderAt = dateField(
		context,
		itemIndex,
		context.getNodeParameter('orderAt', itemIndex, ''),
		'Scheduled For',
	);
	if (orderAt === undefined)
		refuseItem(
			context,
			itemIndex,
			'"Scheduled For" is empty',
			'A scheduled notification needs the date it is sent: set "Scheduled For", or pick another Status.',
		);
	if (orderAt <= Date.now()) {
		refuseItem(
			context,
			itemIndex,
			`"Scheduled For" is in the past: ${new Date(orderAt).toISOString()}`,
			'Give a future date, or choose Published to send it now.',
		);
	}
	return { status, orderAt };
}

interface PushOptions {
	title?: string;
	body?: string;
	badge?: number;
	sound?: string;
	subscriptions?: string;
	delayUntil?: string;
}

/** The API's pushNotification object, or undefined when no push is asked for. */
export function readPush(
	context: IExecuteFunctions,
	itemIndex: number,
	data: IDataObject | undefined,
) {
	if (!context.getNodeParameter('sendPush', itemIndex, false)) return undefined;
	const options = context.getNodeParameter('push', itemIndex, {}) as PushOptions;
	const payload: IDataObject = {
		title: options.title || String(data?.title ?? ''),
		body: options.body || String(data?.message ?? ''),
	};
	if (!payload.title && !payload.body) {
		refuseItem(
			context,
			itemIndex,
			'the push notification has no title and no body',
			'Fill in the push Title or Body, or the notification Title or Message.',
		);
	}
	if (options.badge !== undefined) payload.badge = options.badge;
	if (options.sound) payload.sound = options.sound;
	const push: IDataObject = { payload };
	const ids = splitList(options.subscriptions);
	if (ids.some((id) => !/^\d+$/.test(id))) {
		refuseItem(
			context,
			itemIndex,
			`"Subscription IDs" must be whole numbers: "${options.subscriptions}"`,
			'Give subscription IDs separated by commas, e.g. 71, 72.',
		);
	}
	if (ids.length) push.subscriptions = ids.map(Number);
	const delay = dateField(context, itemIndex, options.delayUntil, 'Delay Until');
	if (delay !== undefined) push.delayUntilTimestamp = Math.floor(delay / 1000);
	return push;
}

/** One notification to create: the app it belongs to and the API's create body. */
export interface NotificationPayload {
	appId: number;
	body: IDataObject;
}

/** The API's create body (orderAt as epoch milliseconds, the "number" create takes). */
export function buildCreateBody(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const data = readData(context, itemIndex);
	if (!data)
		refuseItem(
			context,
			itemIndex,
			'the notification has no content',
			'Fill in Title, Message or Additional Data.',
		);
	const { status, orderAt } = readStatus(context, itemIndex);
	const body: IDataObject = { data, status };
	if (orderAt !== undefined) body.orderAt = orderAt;
	const scope = readScope(context, itemIndex, undefined);
	if (scope) body.scope = scope;
	const push = readPush(context, itemIndex, data);
	if (push) body.pushNotification = push;
	return body;
}

/**
 * The update body. Status is sent unless it is "keep" (the caller then adds the current status and
 * orderAt): the API resets an update without one to draft. orderAt (a date-time for updates) is
 * sent for scheduled notifications.
 */
export function buildUpdateBody(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const data = readData(context, itemIndex);
	const { status, orderAt } = readStatus(context, itemIndex);
	const body: IDataObject = status === 'keep' ? {} : { status };
	if (data) {
		body.data = data;
		body.extendData = context.getNodeParameter('dataMode', itemIndex, 'merge') === 'merge';
	}
	if (orderAt !== undefined) body.orderAt = new Date(orderAt).toISOString();
	const scope = readScope(context, itemIndex, []);
	if (scope) body.scope = scope;
	const push = readPush(context, itemIndex, data);
	if (push) body.pushNotification = push;
	return body;
}
