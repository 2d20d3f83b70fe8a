import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { findUnstorableColumn } from '../../../helpers/dataSourceEntry';
import { findUnsafeKey } from '../../../transport/unsafeKeys';
import type { InputRows } from './diff';
import { inSlices } from './slices';

/**
 * Whether a row holds only text, finite numbers, booleans and nulls under ordinary names: then
 * neither check below can find anything in it. One pass over a spreadsheet's row (Sync checks
 * 100,000 of them before it reads on) instead of the two walks.
 */
function isPlainRow(row: InputRows[number]): boolean {
	for (const key in row) {
		if (key === '__proto__' || key === 'constructor') return false;
		const value = row[key];
		if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
		if (typeof value !== 'number' || !Number.isFinite(value)) return false;
	}
	return true;
}

/**
 * The refusal of every row holding a field the transport never sends (e.g. __proto__) or a value
 * JSON cannot carry (NaN, Infinity), by item; pausing between slices of rows (see inSlices).
 */
export async function unsafeRows(
	this: IExecuteFunctions,
	rows: InputRows,
	pause: () => Promise<void>,
): Promise<Map<number, NodeOperationError>> {
	const refused = new Map<number, NodeOperationError>();
	const check = (row: InputRows[number], itemIndex: number) => {
		if (isPlainRow(row)) return;
		const key = findUnsafeKey(row);
		if (key === undefined) {
			const unstorable = findUnstorableColumn(row);
			if (unstorable) {
				const message = `Item ${itemIndex}: column "${unstorable.column}" holds ${unstorable.reason}, which cannot be stored`;
				const description =
					'JSON (what the API stores) has no such value: it would arrive as null or not at all. Change the value (e.g. to text or null) with an Edit Fields node. Nothing was changed.';
				refused.set(
					itemIndex,
					new NodeOperationError(this.getNode(), message, { itemIndex, description }),
				);
			}
			return;
		}
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
	};
	await inSlices(
		rows.length,
		(from, to) => {
			for (let itemIndex = from; itemIndex < to; itemIndex++) check(rows[itemIndex], itemIndex);
		},
		pause,
	);
	return refused;
}
