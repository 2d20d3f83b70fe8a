import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../Fliplet/helpers/isObject';

/** The header every hook call carries the activation's secret in (n8n reads it lower-cased). */
export const SECRET_HEADER = 'X-Fliplet-Hook-Secret';

export type HookEvent = 'insert' | 'update';

/**
 * The `web` hook this trigger adds to a data source: on the chosen events the platform calls the
 * workflow's webhook URL with the activation's secret. The call is a doorbell (doorbell.ts): it
 * needs no entry id, and its body names only the data source. Every value is a string without a
 * template, as in every payload of the vendor's docs and widgets (`Fliplet/fliplet-cli:
 * docs/Data-Source-Hooks.md`): a platform that compiles each value as a template takes them all,
 * and none names something no witness shows in a hook's context (such as `entry.id`).
 */
export function triggerHook(
	endpoint: string,
	events: HookEvent[],
	secret: string,
	dataSourceId: number,
): IDataObject {
	return {
		type: 'web',
		runOn: [...events],
		payload: {
			method: 'POST',
			endpoint,
			headers: { [SECRET_HEADER]: secret },
			body: { dataSourceId: String(dataSourceId) },
		},
	};
}

/** Whether a hook is this trigger's: a web hook calling its webhook URL (unique to the node). */
export function isTriggerHook(hook: unknown, endpoint: string): boolean {
	return (
		isObject(hook) &&
		hook.type === 'web' &&
		isObject(hook.payload) &&
		hook.payload.endpoint === endpoint
	);
}

/** Deep equality of JSON values (hooks as stored and as this trigger would write them). */
export function sameJson(a: unknown, b: unknown): boolean {
	if (Array.isArray(a) || Array.isArray(b)) {
		return (
			Array.isArray(a) &&
			Array.isArray(b) &&
			a.length === b.length &&
			a.every((item, index) => sameJson(item, b[index]))
		);
	}
	if (isObject(a) && isObject(b)) {
		const keys = Object.keys(a);
		return (
			keys.length === Object.keys(b).length &&
			keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameJson(a[key], b[key]))
		);
	}
	return a === b;
}

/** Compares a received secret with the stored one in time independent of where they differ. */
export function sameSecret(given: string, expected: string): boolean {
	let difference = given.length ^ expected.length;
	for (let i = 0; i < expected.length; i++) {
		difference |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
	}
	return difference === 0;
}
