import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { findUnsafeKey } from '../../../transport/unsafeKeys';
import type { InputRows } from './diff';

/** The refusal of every row holding a field the transport never sends (e.g. __proto__), by item. */
export function unsafeRows(
	this: IExecuteFunctions,
	rows: InputRows,
): Map<number, NodeOperationError> {
	const refused = new Map<number, NodeOperationError>();
	rows.forEach((row, itemIndex) => {
		const key = findUnsafeKey(row);
		if (key === undefined) return;
		const error = new NodeOperationError(
			this.getNode(),
			`Item ${itemIndex}: the field "${key}" is never sent`,
			{
				itemIndex,
				description:
					'Fields named __proto__ (or constructor.prototype) can corrupt objects on a server that merges them (prototype pollution). Rename or remove that field, e.g. with an Edit Fields node. Nothing was changed.',
			},
		);
		refused.set(itemIndex, error);
	});
	return refused;
}
