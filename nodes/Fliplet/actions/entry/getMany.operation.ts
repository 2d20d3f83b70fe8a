import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { entryAs, type EntryOutput } from '../../helpers/dataSourceEntry';
import {
	attributesIn,
	ENTRY_FIELDS,
	selectNaming,
	type ColumnForm,
	type NamedColumns,
} from '../../helpers/columnForm';
import {
	bareWhere,
	buildOrder,
	buildWhere,
	columnName,
	jsonParameter,
	type SimpleFilter,
} from '../../helpers/dataSourceQuery';
import {
	dataSourcePath,
	getDataSourceTarget,
	type DataSourceTarget,
} from '../../helpers/dataSourceTarget';
import { downloadFilesSettings, entryWithFiles } from '../../helpers/fileDownloads';
import { maxResults } from '../../helpers/limits';
import { mapItemsToExecutionData } from '../../helpers/mapItems';
import { asNodeError } from '../../helpers/nodeError';
import { listFrom } from '../../helpers/responses';
import {
	collectPages,
	flipletApiRequest,
	PAGES_AHEAD,
	stablePages,
	type ReadOrder,
} from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { dataSourceLocator } from '../dataSource/dataSource.descriptions';
import { downloadFilesFields } from '../files.descriptions';
import { checkJoins } from '../../helpers/joinCheck';
import { entryOutputField } from './entry.descriptions';
import { filterRowsField, sortField, whereJsonField } from './query.descriptions';
import { columnList } from '../../helpers/commaList';
import { columnPicker } from '../columnPicker.descriptions';

const json = { show: { queryMode: ['json'] } };

/** An aggregation returns the pipeline's results as they come: paging and simplifying do not apply. */
const withoutAggregate = (field: INodeProperties): INodeProperties => ({
	...field,
	displayOptions: {
		...field.displayOptions,
		hide: { ...field.displayOptions?.hide, aggregate: [{ _cnd: { exists: true } }] },
	},
});

const properties: INodeProperties[] = [
	dataSourceLocator(),
	{
		displayName: 'Query Mode',
		name: 'queryMode',
		type: 'options',
		default: 'simple',
		options: [
			{
				name: 'Simple',
				value: 'simple',
				description: 'Filter with column, condition and value rows',
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'Write the where filter, an aggregation pipeline or joins as JSON',
			},
		],
	},
	{ ...filterRowsField, displayOptions: { show: { queryMode: ['simple'] } } },
	{ ...whereJsonField, displayOptions: json },
	{
		displayName: 'Aggregate (JSON)',
		name: 'aggregate',
		type: 'json',
		default: '',
		displayOptions: json,
		placeholder: '[{"$group": {"_id": "$data.Department", "count": {"$sum": 1}}}]',
		description:
			'Optional pipeline of $project, $group and $sort stages over whole entries: a column is "$data.Column", and the entry\'s own fields (its ID and dates) are "$" and their name, e.g. "$createdAt" ($sum, $avg, $min, $max; {"$convertToNumber": "$data.Column"} turns text into numbers). Each result becomes one item.',
	},
	{
		displayName: 'Join (JSON)',
		name: 'join',
		type: 'json',
		default: '',
		displayOptions: json,
		placeholder:
			'{"Department": {"dataSourceName": "Departments", "on": {"data.Department": "data.Name"}}}',
		description:
			'Optional joins: name → {dataSourceId or dataSourceName, on: {"data.ThisColumn": "data.OtherColumn"}} with optional required, where, attributes, limit, count and order (one pair, e.g. ["createdAt", "DESC"], with "data." before a column). Matches come back under "joins".',
	},
	{
		displayName:
			'With an aggregation pipeline each result becomes one item as the API returns it: Return All, Limit, Output, Columns to Return and Page Size do not apply.',
		name: 'aggregateNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { queryMode: ['json'], aggregate: [{ _cnd: { exists: true } }] } },
	},
	sortField,
	...returnAllOrLimit().map(withoutAggregate),
	withoutAggregate(entryOutputField),
	...downloadFilesFields.map(withoutAggregate),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			columnPicker({
				displayName: 'Columns to Return',
				name: 'attributes',
				multiple: true,
				description:
					'Columns to return (the entry ID always comes back). Empty returns all columns.',
			}),
			{
				displayName: 'Distinct',
				name: 'distinct',
				type: 'boolean',
				default: false,
				description:
					'Whether to return each combination of the Columns to Return once (without entry IDs); needs Columns to Return',
			},
			{
				displayName: 'Response',
				name: 'output',
				type: 'options',
				default: 'entries',
				options: [
					{ name: 'One Item per Entry', value: 'entries' },
					{
						name: 'Raw Response',
						value: 'raw',
						description:
							'One item with "entries" and "pagination" as the API returns them (Output does not apply)',
					},
				],
			},
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1000,
				description: 'Entries read per request when many are wanted',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['entry'], operation: ['getMany'] } },
	properties,
);

/** The query body (without paging and columns) and the columns to return, from the node's fields. */
interface GetManyQuery {
	body: IDataObject;
	named?: NamedColumns;
}

function queryBody(this: IExecuteFunctions, itemIndex: number): GetManyQuery {
	const body: IDataObject = { type: 'select' };
	if (this.getNodeParameter('queryMode', itemIndex, 'simple') === 'json') {
		const where = jsonParameter.call(this, 'where', 'Where', itemIndex, 'object') as
			| IDataObject
			| undefined;
		if (where && Object.keys(where).length) body.where = bareWhere(where);
		const join = jsonParameter.call(this, 'join', 'Join', itemIndex, 'object') as
			| IDataObject
			| undefined;
		if (join) {
			checkJoins(this.getNode(), join, itemIndex);
			body.join = join;
		}
		const aggregate = jsonParameter.call(this, 'aggregate', 'Aggregate', itemIndex, 'array') as
			| IDataObject[]
			| undefined;
		if (aggregate) body.aggregate = aggregate;
	} else {
		const filters = this.getNodeParameter('filters.conditions', itemIndex, []) as SimpleFilter[];
		if (filters.length) body.where = buildWhere.call(this, filters, itemIndex);
	}
	const order = buildOrder(this.getNodeParameter('sort.property', itemIndex, []) as IDataObject[]);
	if (order.length) body.order = order;
	const names = columnList(this.getNodeParameter('options.attributes', itemIndex, []));
	const columns = names.filter((name) => !ENTRY_FIELDS.includes(name)).map(columnName);
	const entryFields = names.filter((name) => ENTRY_FIELDS.includes(name));
	if (this.getNodeParameter('options.distinct', itemIndex, false) === true) {
		if (!names.length) {
			throw new NodeOperationError(this.getNode(), 'Distinct needs Columns to Return', {
				itemIndex,
				description:
					'Give the columns whose combinations you want once each in Options → Columns to Return, e.g. Department.',
			});
		}
		// Without the entry id: with it every entry is distinct.
		body.distinct = true;
		return { body, named: { columns, entryFields, entryId: false } };
	}
	return names.length ? { body, named: { columns, entryFields, entryId: true } } : { body };
}

/**
 * The query with the named columns in the form the platform reads (see selectNaming), and what
 * each entry keeps of them: the same in either reading (the `bare` one also returns the entry's
 * other fields).
 */
async function queryNaming(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	body: IDataObject,
	named: NamedColumns | undefined,
	itemIndex: number,
	abortSignal?: AbortSignal,
): Promise<IDataObject> {
	if (!named) return await query.call(this, target, body, itemIndex, abortSignal);
	const attributed = (form: ColumnForm) => ({ ...body, attributes: attributesIn(form, named) });
	const answer = await selectNaming(
		this,
		named.columns,
		async (form) => await query.call(this, target, attributed(form), itemIndex, abortSignal),
		(page) => listFrom(this.getNode(), page, 'entries', itemIndex),
	);
	const keep = new Set(['data', 'joins', ...(named.entryFields ?? [])]);
	if (named.entryId) keep.add('id');
	// An entry that carries none of the columns comes back without `data` in SPEC's reading.
	const entries = listFrom(this.getNode(), answer, 'entries', itemIndex).map((entry) => ({
		data: {},
		...Object.fromEntries(Object.entries(entry).filter(([key]) => keep.has(key))),
	}));
	return Array.isArray(answer) ? { entries } : { ...answer, entries };
}

async function query(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	body: IDataObject,
	itemIndex: number,
	abortSignal?: AbortSignal,
) {
	return (await flipletApiRequest.call(this, {
		method: 'POST',
		path: dataSourcePath(target, 'data', 'query'),
		qs: target.qs,
		body,
		idempotent: true,
		itemIndex,
		abortSignal,
	})) as IDataObject;
}

/**
 * Up to `max` distinct rows, read in pages by position: distinct rows carry no entry id to anchor a
 * page on, so a write meanwhile may shift a row across a page boundary.
 */
async function readDistinct(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	{ body, named }: GetManyQuery,
	max: number,
	pageSize: number,
	itemIndex: number,
) {
	return await collectPages(
		async (page) =>
			listFrom(
				this.getNode(),
				await queryNaming.call(this, target, { ...body, ...page }, named, itemIndex),
				'entries',
				itemIndex,
			),
		max,
		pageSize,
	);
}

/**
 * Up to `max` matching entries, read in stable pages (see stablePages): ordered by entry id, or by
 * the chosen sort with the entry id as tie-break, so entries others insert or delete meanwhile never
 * make the read skip or repeat another entry.
 */
async function readAll(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	{ body, named }: GetManyQuery,
	max: number,
	pageSize: number,
	itemIndex: number,
) {
	const sorted = Array.isArray(body.order) && body.order.length > 0;
	const byId = {
		compare: (a: IDataObject, b: IDataObject) => Number(a.id) - Number(b.id),
		outOfOrder: () =>
			new NodeOperationError(
				this.getNode(),
				'Unexpected response from Fliplet: entries not in entry ID order',
				{
					itemIndex,
					description:
						'Get Many reads many entries in pages ordered by entry ID so that others writing meanwhile cannot make it skip or repeat an entry, and the API answered in another order. Please report it with the response.',
				},
			),
	};
	const order: ReadOrder<IDataObject> = sorted ? { idOf: (entry) => String(entry.id) } : byId;
	const ordered = { ...body, order: [...((body.order as unknown[]) ?? []), ['id', 'ASC']] };
	// Pages are asked for ahead: the pagination returned is that of the last page used.
	const paginations = new Map<number, IDataObject | undefined>();
	let pagination: IDataObject | undefined;
	const entries: IDataObject[] = [];
	const fetchPage = async (
		{ offset, limit }: { offset: number; limit: number },
		abortSignal: AbortSignal,
	) => {
		const paged = { ...ordered, limit, offset, includePagination: true };
		const page = await queryNaming.call(this, target, paged, named, itemIndex, abortSignal);
		const answered = page.pagination as IDataObject | undefined;
		paginations.set(offset, answered);
		const total = typeof answered?.total === 'number' ? answered.total : undefined;
		return { items: listFrom(this.getNode(), page, 'entries', itemIndex), total };
	};
	const reading = { ahead: PAGES_AHEAD, wanted: max };
	for await (const page of stablePages(fetchPage, order, Math.min(pageSize, max), reading)) {
		pagination = paginations.get(page.request.offset);
		entries.push(...page.items.slice(0, max - entries.length));
		if (entries.length >= max) break;
	}
	return { pagination, entries };
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItemsToExecutionData.call(this, items, async (itemIndex) => {
		const target = getDataSourceTarget.call(this, itemIndex);
		const read = queryBody.call(this, itemIndex);
		const { body } = read;
		const raw = this.getNodeParameter('options.output', itemIndex, 'entries') === 'raw';
		const files = body.aggregate
			? undefined
			: downloadFilesSettings((name, fallback) => this.getNodeParameter(name, itemIndex, fallback));
		if (files && raw) {
			throw new NodeOperationError(this.getNode(), 'Download Files needs one item per entry', {
				itemIndex,
				description:
					'Set Options → Response to "One Item per Entry" (each entry\'s files become binary properties of its item), or turn Download Files off.',
			});
		}
		const asItems = (json: IDataObject | IDataObject[]) =>
			(Array.isArray(json) ? json : [json]).map((one) => ({ json: one }));

		if (body.aggregate) {
			const response = await query.call(this, target, body, itemIndex);
			return asItems(raw ? response : listFrom(this.getNode(), response, 'entries', itemIndex));
		}

		const max = maxResults.call(this, itemIndex);
		const pageSize = this.getNodeParameter('options.pageSize', itemIndex, 1000) as number;
		const output = this.getNodeParameter('entryOutput', itemIndex, 'entry') as EntryOutput;
		const rows = body.distinct
			? await readDistinct.call(this, target, read, max, pageSize, itemIndex)
			: undefined;
		if (rows && raw) return asItems({ entries: rows });
		const { pagination, entries } = rows
			? { pagination: undefined, entries: rows }
			: await readAll.call(this, target, read, max, pageSize, itemIndex);
		if (raw) return asItems(pagination === undefined ? { entries } : { entries, pagination });
		if (!files) return entries.map((entry) => ({ json: entryAs(entry, output) }));
		const withFiles: INodeExecutionData[] = [];
		for (const entry of entries) {
			const json = entryAs(entry, output);
			try {
				withFiles.push(
					await entryWithFiles(this, entry, json, files, { itemIndex, failures: 'throw' }),
				);
			} catch (error) {
				const failure = asNodeError(this.getNode(), error, itemIndex);
				if (!this.continueOnFail()) throw failure;
				// Continue On Fail: this entry's item says what failed; the other entries go on.
				withFiles.push({
					json: {
						error: failure.message,
						...(failure.description ? { description: failure.description } : {}),
						entry: json,
					},
				});
			}
		}
		return withFiles;
	});
}
