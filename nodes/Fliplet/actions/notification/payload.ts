import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { refuseItem } from '../../helpers/refuseItem';
import { parseInTimeZone } from './zonedDate';
import { splitList } from '../../helpers/commaList';
import { isObject } from '../../helpers/isObject';
import { jsonField } from '../../helpers/jsonField';

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

/**
 * The scope list, or undefined to leave it out: for everyone (Fliplet's editor never sends an
 * empty scope, it leaves it out) and for "keep current" on updates.
 */
export function readScope(context: IExecuteFunctions, itemIndex: number) {
	const mode = context.getNodeParameter('scopeMode', itemIndex, 'everyone') as string;
	if (mode === 'keep' || mode === 'everyone') return undefined;
	if (mode === 'json') {
		const scope = jsonField(context, itemIndex, 'scopeJson', 'Scope (JSON)');
		const list = Array.isArray(scope) ? scope : [scope];
		if (!list.length || !list.every(isObject)) {
			refuseItem(
				context,
				itemIndex,
				'"Scope (JSON)" must be an object or an array of objects',
				'Give one scope object, or an array of them, mapping a user column to the value(s) to reach, e.g. [{"Department": {"$in": ["Sales", "Support"]}}]. For everyone, choose the Everyone audience.',
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

/** Status and, for scheduled, its future date in Unix seconds (what Fliplet reads a number as). */
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
	return { status, orderAt: Math.floor(orderAt / 1000) };
}

interface PushOptions {
	title?: string;
	body?: string;
	badge?: number;
	sound?: string;
	icon?: string;
	subscriptions?: string;
	delayUntil?: string;
	linkScreen?: string | number;
	linkQuery?: string;
	priority?: string;
	pushOnly?: boolean;
}

function pushOptions(context: IExecuteFunctions, itemIndex: number): PushOptions | undefined {
	if (!context.getNodeParameter('sendPush', itemIndex, false)) return undefined;
	return context.getNodeParameter('push', itemIndex, {}) as PushOptions;
}

/**
 * What Fliplet's notification editors put in every push: without a sound a push is silent on iOS.
 * Each is overridable; an emptied Sound or Icon leaves it out.
 */
export const PUSH_DEFAULTS = { sound: 'default', priority: 'high', icon: 'icon_notification' };

/**
 * Fliplet sends the push of any notification that carries one, whatever its status, so a draft
 * never carries one (its editors leave the push out of drafts for that reason).
 */
export function refuseDraftPush(
	context: IExecuteFunctions,
	itemIndex: number,
	which = 'Status is Draft',
): void {
	if (!context.getNodeParameter('sendPush', itemIndex, false)) return;
	refuseItem(
		context,
		itemIndex,
		`a draft cannot carry a push notification (${which}): Fliplet would send the push now`,
		'Fliplet sends the push of a notification that carries one whatever its status, so a draft with a push reaches the devices at once (its own editor never adds the push to a draft). Turn "Send Push Notification" off to save the draft; when it is ready, run Update with Status Published or Scheduled and "Send Push Notification" on.',
	);
}

/**
 * The notification's `type` when "Push Only" was set: `push` (no entry in the app's notification
 * inbox) or `in-app`; undefined leaves it to Fliplet (in-app).
 */
export function readType(context: IExecuteFunctions, itemIndex: number): string | undefined {
	const pushOnly = pushOptions(context, itemIndex)?.pushOnly;
	if (pushOnly === undefined) return undefined;
	return pushOnly ? 'push' : 'in-app';
}

/** A deep link to a screen of the app: `{action: 'screen', page, query}`, as Fliplet's editor sends. */
function screenLink(
	context: IExecuteFunctions,
	itemIndex: number,
	options: PushOptions,
): IDataObject | undefined {
	const page = String(options.linkScreen ?? '').trim();
	const query = String(options.linkQuery ?? '').trim();
	if (!page) {
		if (query)
			refuseItem(
				context,
				itemIndex,
				'"Link Query" is set but "Link to Screen" is empty',
				'Give the ID of the screen the push opens, or remove the query.',
			);
		return undefined;
	}
	if (!/^\d+$/.test(page))
		refuseItem(
			context,
			itemIndex,
			`"Link to Screen" must be a screen ID (a whole number): "${page}"`,
			'Give the numeric ID of a screen of the app (Fliplet Studio shows it in the screen settings).',
		);
	const link: IDataObject = { action: 'screen', page: Number(page) };
	if (query) link.query = query.startsWith('?') ? query : `?${query}`;
	return link;
}

function requirePushText(context: IExecuteFunctions, itemIndex: number, payload: IDataObject) {
	if (payload.title || payload.body) return;
	refuseItem(
		context,
		itemIndex,
		'the push notification has no title and no body',
		'Fill in the push Title or Body, or the notification Title or Message.',
	);
}

/** Whether an update's push has no text of its own, so it takes the stored title and message. */
export function pushLacksText(body: IDataObject): boolean {
	const payload = (body.pushNotification as IDataObject | undefined)?.payload as
		| IDataObject
		| undefined;
	return payload !== undefined && !payload.title && !payload.body;
}

/**
 * An update's push without text of its own gets the stored notification's title and message, as
 * Fliplet's editor builds the push of a notification it publishes; refused when it has none.
 */
export function fillPushText(
	context: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	stored: IDataObject | undefined,
): void {
	if (!pushLacksText(body)) return;
	const payload = (body.pushNotification as IDataObject).payload as IDataObject;
	const data = (stored?.data ?? {}) as IDataObject;
	payload.title = String(data.title ?? '');
	payload.body = String(data.message ?? '');
	requirePushText(context, itemIndex, payload);
}

/**
 * The API's pushNotification object, and the screen it links to (which the notification's
 * `data.navigate` carries too, as Fliplet's editor sets both); undefined when no push is asked for.
 */
export function readPush(
	context: IExecuteFunctions,
	itemIndex: number,
	data: IDataObject | undefined,
	requireText = true,
): { pushNotification: IDataObject; navigate?: IDataObject } | undefined {
	const options = pushOptions(context, itemIndex);
	if (!options) return undefined;
	const payload: IDataObject = {
		title: options.title || String(data?.title ?? ''),
		body: options.body || String(data?.message ?? ''),
	};
	if (requireText) requirePushText(context, itemIndex, payload);
	if (options.badge !== undefined) payload.badge = options.badge;
	const { sound, priority, icon } = { ...PUSH_DEFAULTS, ...options };
	if (sound) payload.sound = sound;
	payload.priority = priority || PUSH_DEFAULTS.priority;
	if (icon) payload.icon = icon;
	const link = screenLink(context, itemIndex, options);
	if (link) payload.custom = { customData: link };
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
	return { pushNotification: push, ...(link ? { navigate: link } : {}) };
}

/**
 * What Fliplet's push notification editor adds to every create and update it sends
 * (`Fliplet/fliplet-widget-push-notifications: src/components/NotificationForm.vue`). No public
 * source says what the server does with it; it is sent as the editor sends it, and left out of
 * the lookups, as the editor's own lists leave it out.
 */
export const EDITOR_FLAG: IDataObject = { isPushNotificationWidget: true };

/** One notification to create: the app it belongs to and the API's create body. */
export interface NotificationPayload {
	appId: number;
	body: IDataObject;
}

/** The API's create body (orderAt as Unix seconds, the number Fliplet's editor sends). */
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
	if (status === 'draft') refuseDraftPush(context, itemIndex);
	const body: IDataObject = { data, status };
	if (orderAt !== undefined) body.orderAt = orderAt;
	const scope = readScope(context, itemIndex);
	if (scope) body.scope = scope;
	const type = readType(context, itemIndex);
	if (type) body.type = type;
	const push = readPush(context, itemIndex, data);
	if (push) {
		body.pushNotification = push.pushNotification;
		if (push.navigate) body.data = { ...data, navigate: push.navigate };
	}
	return body;
}

/**
 * The update body. Status is sent unless it is "keep" (the caller then adds the current status and
 * orderAt, and refuses a push on a draft): the API resets an update without one to draft. orderAt
 * (Unix seconds) is sent for scheduled notifications. The scope is left out for "keep" and for
 * everyone (see update). A screen link without other data is merged into the stored data. A
 * push without text is completed from the stored notification (see fillPushText).
 */
export function buildUpdateBody(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const data = readData(context, itemIndex);
	const { status, orderAt } = readStatus(context, itemIndex);
	if (status === 'draft') refuseDraftPush(context, itemIndex);
	const body: IDataObject = status === 'keep' ? {} : { status };
	const push = readPush(context, itemIndex, data, false);
	if (data || push?.navigate) {
		body.data = push?.navigate ? { ...data, navigate: push.navigate } : data;
		body.extendData = !data || context.getNodeParameter('dataMode', itemIndex, 'merge') === 'merge';
	}
	if (orderAt !== undefined) body.orderAt = orderAt;
	const scope = readScope(context, itemIndex);
	if (scope) body.scope = scope;
	const type = readType(context, itemIndex);
	if (type) body.type = type;
	if (push) body.pushNotification = push.pushNotification;
	return body;
}
