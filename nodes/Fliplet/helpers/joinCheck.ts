import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from './isObject';

/** The entry's own fields a join may name without the `data.` prefix. */
const JOIN_ENTRY_FIELDS = ['id', 'createdAt', 'updatedAt', 'deletedAt', 'order', 'dataSourceId'];

const isEntryPath = (path: unknown) =>
	typeof path === 'string' && (path.startsWith('data.') || JOIN_ENTRY_FIELDS.includes(path));

const isDirection = (value: unknown) =>
	value === undefined || (typeof value === 'string' && /^(ASC|DESC)$/i.test(value));

/** Why a join's own `order` would not sort, or undefined when it is one flat pair or a name. */
function orderProblem(order: unknown): string | undefined {
	if (order === undefined) return undefined;
	const pair = typeof order === 'string' ? [order] : order;
	if (
		!Array.isArray(pair) ||
		typeof pair[0] !== 'string' ||
		pair.length > 2 ||
		!isDirection(pair[1])
	)
		return 'is one flat [column, direction] pair or a column name inside a join, e.g. ["createdAt", "DESC"] (the list of pairs is for the query\'s own sort only)';
	if (!isEntryPath(pair[0]))
		return `names "${String(pair[0])}": write a column as "data.<Column>" (e.g. "data.${String(pair[0])}"), or an entry field such as createdAt`;
	return undefined;
}

/**
 * Refuses, before sending, a join the platform would read silently wrong (the source-checked
 * docs, `Fliplet/fliplet-cli: docs/API/datasources/joins.md`): the keys and values of `on` address
 * the whole entry, so a column without `data.` matches nothing; a join's own `order` is one flat
 * `[column, direction]` pair or a column name, not the query's list of pairs.
 */
export function checkJoins(node: INode, join: IDataObject, itemIndex: number): void {
	const refuse = (name: string, problem: string) =>
		new NodeOperationError(node, `Join "${name}": ${problem}`, {
			itemIndex,
			description:
				'Fix the join in Join (JSON), e.g. {"Department": {"dataSourceName": "Departments", "on": {"data.Department": "data.Name"}, "order": ["createdAt", "DESC"]}}.',
		});
	for (const [name, spec] of Object.entries(join)) {
		if (!isObject(spec)) continue;
		if (isObject(spec.on)) {
			for (const [left, right] of Object.entries(spec.on)) {
				const bare = [left, right].find((path) => !isEntryPath(path));
				if (bare !== undefined) {
					const column = String(bare);
					throw refuse(
						name,
						`"on" names "${column}" without "data.": a join matches on paths of the whole entry, so it would match nothing. Write "data.${column}" (or id for the entry's ID)`,
					);
				}
			}
		}
		const problem = orderProblem(spec.order);
		if (problem) throw refuse(name, `"order" ${problem}`);
	}
}
