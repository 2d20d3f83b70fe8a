import type { IDataObject, INode } from 'n8n-workflow';

import { isObject } from './isObject';
import { asNodeError, httpStatusOf } from './nodeError';

/**
 * How the platform reads the column names of a query's `attributes`. Its own sources disagree:
 * SPEC's example names `id, data.Name` (`prefixed`); the source-checked docs say the names are
 * columns picked off each entry's data, so `data.Name` picks nothing and the entry keeps its own
 * fields (`bare`). No recorded answer decides it, so the node learns it from the answers.
 */
export type ColumnForm = 'prefixed' | 'bare';

/** The entry's own fields, which Get Many's Columns to Return may name beside columns. */
export const ENTRY_FIELDS = ['id', 'createdAt', 'updatedAt', 'dataSourceId'];

/** What a select returns of each entry. */
export interface NamedColumns {
	/** Columns of the entry's data (a column may be named `id`: it is still a column). */
	columns: string[];
	/** Fields of the entry itself asked for beside them (`createdAt`…). */
	entryFields?: string[];
	/** Whether the entry id must come back (to anchor pages, or to update the entry). */
	entryId: boolean;
}

/**
 * `attributes` naming the columns in a form: SPEC's entry fields and `data.<Column>`, or the
 * bare column names, where each entry keeps its own fields anyway.
 */
export function attributesIn(form: ColumnForm, named: NamedColumns): string[] {
	if (form === 'bare') return named.columns;
	const fields = (named.entryFields ?? []).filter((field) => field !== 'id');
	return [
		...(named.entryId || named.entryFields?.includes('id') ? ['id'] : []),
		...fields,
		...named.columns.map((column) => `data.${column}`),
	];
}

const own = (value: unknown, key: string): unknown =>
	isObject(value) && Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;

/**
 * Whether an entry carries a value (even null) of one of the columns, by name or dotted path;
 * only the entry's own keys count (a column named `__proto__` is not found on every object).
 */
function carriesAny(entry: IDataObject, columns: string[]): boolean {
	return columns.some((column) => {
		if (own(entry.data, column) !== undefined) return true;
		let value: unknown = entry.data;
		for (const part of column.split('.')) value = own(value, part);
		return value !== undefined;
	});
}

/** The column form one execution of a node learned; nothing is kept from one execution to the next. */
const learnedByRun = new WeakMap<RunContext, ColumnForm>();

/** The execution's context (e.g. `this`): what the form is learned for, and whose node fails. */
interface RunContext {
	getNode(): INode;
}

/**
 * Whether a failure is the platform refusing the names of a form: a 400 (a database refuses a
 * column it does not know; the source-checked docs say `data.` "breaks the query" in the bare
 * reading). Anything else (a 5xx after the transport's retries, a dropped connection, a 401) says
 * nothing about the form.
 */
const refusesNames = (error: unknown) => httpStatusOf(error) === '400';

/**
 * Sends a select naming the data `columns` in the form the platform reads. Until the form is
 * known, a page is asked in SPEC's form (`prefixed`), and again in the other form when it holds
 * entries but none carries any named column, or when SPEC's form is refused (a 400): the form
 * whose answer carries them is kept for the rest of the execution (`run` is the execution's
 * context, e.g. `this`). A 400 to the other form means the platform reads SPEC's: the first answer
 * is used and that form kept. When SPEC's form was refused and the bare names answer entries
 * with neither their own fields nor a named column (as SPEC's reading answers names it does not
 * know), the refusal was about something else: it is the error. When
 * neither answer carries the columns, they are empty on those
 * entries in either reading: the first answer is used and the next page asks again. Pages asked at
 * the same time do not wait for each other (a read's first pages travel together): in the bare
 * reading each of them may be asked twice, once.
 */
export async function selectNaming<T>(
	run: RunContext,
	columns: string[],
	send: (form: ColumnForm) => Promise<T>,
	entriesOf: (answer: T) => IDataObject[],
): Promise<T> {
	// A column named `id` (or like another field SPEC's form names bare) shows in data in either
	// reading, through the `id` of SPEC's form: only the other columns tell the readings apart.
	const telling = columns.filter((column) => !ENTRY_FIELDS.includes(column));
	if (!telling.length) return await send('prefixed');
	const known = learnedByRun.get(run);
	if (known) return await send(known);
	let first: T;
	try {
		first = await send('prefixed');
	} catch (error) {
		if (!refusesNames(error)) throw asNodeError(run.getNode(), error);
		const second = await send('bare').catch((other: unknown) => {
			// Refused in both forms: the query is wrong for another reason, said in SPEC's form.
			throw asNodeError(run.getNode(), refusesNames(other) ? error : other);
		});
		const answered = entriesOf(second);
		// In the bare reading an entry keeps its own fields (a distinct row its columns); entries with
		// neither mean the platform reads SPEC's form and the 400 was about something else: that is
		// the error.
		const picked = (entry: IDataObject) => entry.id !== undefined || carriesAny(entry, telling);
		if (!answered.every(picked)) throw asNodeError(run.getNode(), error);
		if (answered.length) learnedByRun.set(run, 'bare');
		return second;
	}
	const entries = entriesOf(first);
	if (!entries.length) return first;
	if (entries.some((entry) => carriesAny(entry, telling))) {
		if (!learnedByRun.has(run)) learnedByRun.set(run, 'prefixed');
		return first;
	}
	let second: T;
	try {
		second = await send('bare');
	} catch (error) {
		if (!refusesNames(error)) throw asNodeError(run.getNode(), error);
		if (!learnedByRun.has(run)) learnedByRun.set(run, 'prefixed');
		return first;
	}
	if (!entriesOf(second).some((entry) => carriesAny(entry, telling))) return first;
	learnedByRun.set(run, 'bare');
	return second;
}
