import type { IExecuteFunctions } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { refuseItem } from './refuseItem';

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
