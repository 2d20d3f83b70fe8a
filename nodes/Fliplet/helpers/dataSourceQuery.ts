import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';
import { splitList } from './commaList';
import { isObject } from './isObject';

/** A column as the user may write it, `Name` or `data.Name`: its name. */
export const columnName = (column: string) =>
	column.startsWith('data.') ? column.slice('data.'.length) : column;

/**
 * Conditions the platform evaluates itself (`$filters`; text comparisons ignore case), by the
 * node's option value. Option values never start with "=", which n8n would read as an expression.
 */
const PLATFORM_CONDITIONS: Record<string, string> = {
	equals: '==',
	notEquals: '!=',
	gt: '>',
	gte: '>=',
	lt: '<',
	lte: '<=',
	contains: 'contains',
	empty: 'empty',
	notempty: 'notempty',
	between: 'between',
	oneof: 'oneof',
	dateis: 'dateis',
	datebefore: 'datebefore',
	dateafter: 'dateafter',
	datebetween: 'datebetween',
};

/** Document-database (Sift) operators, applied to the column's stored value as is. */
const SIFT_OPERATORS = [
	'$eq',
	'$ne',
	'$gt',
	'$gte',
	'$lt',
	'$lte',
	'$in',
	'$nin',
	'$regex',
	'$iLike',
	'$exists',
];

export interface SimpleFilter {
	column?: string;
	condition?: string;
	value?: string;
	valueTo?: string;
	unit?: string;
}

/** Numbers and true/false typed as such; everything else stays text. */
function typed(value: string): string | number | boolean {
	const text = value.trim();
	if (text !== '' && !Number.isNaN(Number(text))) return Number(text);
	if (text === 'true' || text === 'false') return text === 'true';
	return value;
}

/** Builds a `where` from the simple filter rows: all rows must match. */
export function buildWhere(
	this: IExecuteFunctions,
	filters: SimpleFilter[],
	itemIndex: number,
): IDataObject {
	const platform: IDataObject[] = [];
	const sift: IDataObject[] = [];
	for (const filter of filters) {
		const column = String(filter.column ?? '').trim();
		const option = String(filter.condition ?? '');
		const condition = PLATFORM_CONDITIONS[option] ?? option;
		const value = String(filter.value ?? '');
		if (!column) {
			throw new NodeOperationError(this.getNode(), 'A filter has no column', {
				itemIndex,
				description: 'Pick the column each filter row tests, or remove the empty row.',
			});
		}
		if (option in PLATFORM_CONDITIONS) {
			const row: IDataObject = { column, condition };
			if (condition === 'between')
				row.value = { from: typed(value), to: typed(String(filter.valueTo ?? '')) };
			else if (condition === 'datebetween') {
				row.from = { value };
				row.to = { value: String(filter.valueTo ?? '') };
			} else if (condition === 'oneof') row.value = splitList(value);
			else if (condition !== 'empty' && condition !== 'notempty') row.value = value;
			if (condition.startsWith('date') && filter.unit) row.unit = filter.unit;
			platform.push(row);
		} else if (SIFT_OPERATORS.includes(condition)) {
			let operand: unknown = typed(value);
			if (condition === '$in' || condition === '$nin') operand = splitList(value).map(typed);
			if (condition === '$regex' || condition === '$iLike') operand = value;
			if (condition === '$exists') operand = value.trim() !== 'false';
			sift.push({ [column]: { [condition]: operand } });
		} else {
			throw new NodeOperationError(this.getNode(), `Unknown filter condition "${option}"`, {
				itemIndex,
				description: 'Pick a condition from the list.',
			});
		}
	}
	let where: IDataObject = {};
	if (platform.length) where.$filters = platform;
	// Spread, not Object.assign: a column named __proto__ stays a key (refused before sending)
	// instead of silently replacing the object's prototype and dropping the filter.
	if (sift.length === 1) where = { ...where, ...sift[0] };
	if (sift.length > 1) where.$and = sift;
	return where;
}

const LOGICAL = ['$and', '$or', '$nor'];

/**
 * A `where` as every reading of its keys takes it. The platform applies `where` inside each
 * entry's data: its own docs write `{Name: 'John'}` and say a `data.` prefix breaks the query
 * (`Fliplet/fliplet-cli: docs/API/fliplet-datasources.md`, branch fix/DEV-1824-ds-order-contract),
 * while SPEC names columns `data.Name`. So a key (and a `$filters` column) written `data.Name`
 * is sent as `Name`, which both take; a key that is already a column name stays as it is.
 */
export function bareWhere(where: IDataObject): IDataObject {
	const keys = new Set(Object.keys(where));
	const bare = (key: string) => {
		const name = columnName(key);
		return name !== key && keys.has(name) ? key : name;
	};
	return Object.fromEntries(
		Object.entries(where).map(([key, value]) => {
			if (LOGICAL.includes(key) && Array.isArray(value))
				return [key, value.map((part) => (isObject(part) ? bareWhere(part) : part))];
			if (key === '$filters' && Array.isArray(value)) {
				const filters = value.map((filter) =>
					isObject(filter) && typeof filter.column === 'string'
						? { ...filter, column: columnName(filter.column) }
						: filter,
				);
				return [key, filters];
			}
			return [key.startsWith('$') ? key : bare(key), value];
		}),
	);
}

/**
 * The sort list's value for the entry-level `order`, the row order Fliplet Studio shows; not
 * `order`, which names a column of that name.
 */
export const ROW_ORDER = '$order';

/**
 * The entry's own fields `order` takes unprefixed (with `order` itself, Studio's row order, which
 * the sort list names ROW_ORDER); every other column is `data.<Column>`, verbatim, spaces
 * included, as the platform's route checks (`Fliplet/fliplet-cli: docs/API/fliplet-datasources.md`,
 * "The `order` contract", branch fix/DEV-1824-ds-order-contract).
 */
const SORT_FIELDS = ['id', 'createdAt', 'updatedAt', 'deletedAt'];

const sortPath = (column: string) => {
	if (column === ROW_ORDER) return 'order';
	return SORT_FIELDS.includes(column) ? column : `data.${columnName(column)}`;
};

/** `[[path, ASC|DESC]]` from the sort rows. */
export function buildOrder(rules: IDataObject[]): Array<[string, string]> {
	return rules
		.filter((rule) => String(rule.column ?? '').trim())
		.map((rule) => [
			sortPath(String(rule.column).trim()),
			rule.direction === 'DESC' ? 'DESC' : 'ASC',
		]);
}

/** What a JSON array parameter holds, for the error that says how to fix it. */
const ARRAY_EXAMPLES: Record<string, string> = {
	entries: '[{"data": {"Name": "Ann"}}, {"id": 12, "data": {"Age": 31}}]',
	aggregate: '[{"$group": {"_id": "$data.Department", "count": {"$sum": 1}}}]',
	accessRules: '[{"type": ["select", "insert"], "allow": "all"}]',
};

/** A JSON parameter (object or array), or undefined when left empty. */
export function jsonParameter(
	this: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	expect: 'object' | 'array',
): IDataObject | IDataObject[] | undefined {
	const raw = this.getNodeParameter(name, itemIndex, '') as unknown;
	if (raw === '' || raw === undefined || raw === null) return undefined;
	let value: unknown = raw;
	if (typeof raw === 'string') {
		if (!raw.trim()) return undefined;
		try {
			value = jsonParse(raw);
		} catch {
			value = undefined;
		}
	}
	const ok =
		expect === 'array'
			? Array.isArray(value)
			: typeof value === 'object' && value !== null && !Array.isArray(value);
	if (!ok) {
		throw new NodeOperationError(this.getNode(), `${label} is not a JSON ${expect}`, {
			itemIndex,
			description:
				expect === 'array'
					? `Give ${label} as a JSON array, e.g. ${ARRAY_EXAMPLES[name] ?? ARRAY_EXAMPLES.aggregate}.`
					: `Give ${label} as a JSON object, e.g. {"Department": "Sales", "Age": {"$gte": 30}}.`,
		});
	}
	return value as IDataObject | IDataObject[];
}
