import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { isObject } from '../../helpers/isObject';
import { maxResults, takeFirst } from '../../helpers/limits';
import { getAppId } from '../../helpers/locators';
import { mapItems } from '../../helpers/mapItems';
import { listFrom } from '../../helpers/responses';
import { apiPath, flipletApiRequest } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { jsonField } from '../../helpers/jsonField';
import { LIST_EVERYTHING } from './listEverything';

/** The API has no paging for notifications: "Return All" asks for this many in one request. */
export const RETURN_ALL_LIMIT = 100_000;

const properties: INodeProperties[] = [
	{
		displayName: 'Count Only',
		name: 'countOnly',
		type: 'boolean',
		default: false,
		description:
			'Whether to return only the number of matching notifications ({count}) instead of the notifications',
	},
	...returnAllOrLimit().map((field) => ({
		...field,
		displayOptions: { show: { ...(field.displayOptions?.show ?? {}), countOnly: [false] } },
	})),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'All Scopes',
				name: 'includeAllScopes',
				type: 'boolean',
				default: true,
				description:
					"Whether to list the notifications of every audience (the default, as Fliplet's editor lists them); off, Fliplet lists only the ones for everyone and the token's own user",
			},
			{
				displayName: 'Direction',
				name: 'direction',
				type: 'options',
				default: 'DESC',
				options: [
					{ name: 'Descending', value: 'DESC' },
					{ name: 'Ascending', value: 'ASC' },
				],
			},
			{
				displayName: 'Include Deleted',
				name: 'includeDeleted',
				type: 'boolean',
				default: false,
				description: 'Whether to also return deleted notifications',
			},
			{
				displayName: 'Include Drafts',
				name: 'includeDrafts',
				type: 'boolean',
				default: true,
				description: 'Whether to list draft notifications (the default); off leaves them out',
			},
			{
				displayName: 'Order By',
				name: 'order',
				type: 'options',
				default: 'orderAt',
				options: [
					{ name: 'Created At', value: 'createdAt' },
					{ name: 'ID', value: 'id' },
					{ name: 'Order At (Send Date)', value: 'orderAt' },
					{ name: 'Updated At', value: 'updatedAt' },
				],
			},
			{
				displayName: 'Scopes (JSON)',
				name: 'scope',
				type: 'json',
				default: '[]',
				placeholder: '[{"Department": "Sales"}]',
				description:
					'Read the notifications of these scopes only (an array of scope objects), instead of every audience',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'multiOptions',
				default: [],
				options: [
					{ name: 'Draft', value: 'draft' },
					{ name: 'Published', value: 'published' },
					{ name: 'Scheduled', value: 'scheduled' },
				],
				description:
					"The statuses to list. Empty: every status (draft, published and scheduled), as Fliplet's editor lists them.",
			},
			{
				displayName: 'Where (JSON)',
				name: 'where',
				type: 'json',
				default: '{}',
				placeholder: '{"data": {"title": "Welcome"}}',
				description:
					'A database-style filter on the notifications, e.g. {"data": {"title": "Welcome"}}. It applies within the chosen Status.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['notification'], operation: ['getMany'] } },
	properties,
);

function isEmpty(value: unknown): boolean {
	if (value === undefined || value === null) return true;
	if (Array.isArray(value)) return value.length === 0;
	return typeof value === 'object' && Object.keys(value).length === 0;
}

function filters(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const result: IDataObject = {};
	if ('where' in options) {
		const where = jsonField(this, itemIndex, 'options.where', 'Where (JSON)');
		if (!isEmpty(where)) {
			if (typeof where !== 'object' || Array.isArray(where)) {
				throw new NodeOperationError(
					this.getNode(),
					`Item ${itemIndex}: "Where (JSON)" must be a JSON object`,
					{
						itemIndex,
						description: 'E.g. {"data": {"title": "Welcome"}}.',
					},
				);
			}
			result.where = where as IDataObject;
		}
	}
	if ('scope' in options) {
		const scope = jsonField(this, itemIndex, 'options.scope', 'Scopes (JSON)');
		if (!isEmpty(scope)) {
			const list: unknown[] = Array.isArray(scope) ? scope : [scope];
			if (!list.every(isObject)) {
				throw new NodeOperationError(
					this.getNode(),
					`Item ${itemIndex}: "Scopes (JSON)" must be a scope object or an array of them`,
					{
						itemIndex,
						description:
							'Give one scope object, or an array of them, mapping a user column to a value, e.g. [{"Department": "Sales"}].',
					},
				);
			}
			result.scope = list as IDataObject[];
		}
	}
	return result;
}

/**
 * The statuses to list: every one unless Status narrows them (Fliplet alone would list only
 * published ones, its editor always asks for all three); Include Drafts off leaves drafts out.
 */
function statusesToList(this: IExecuteFunctions, options: IDataObject, itemIndex: number) {
	const chosen = (options.status as string[] | undefined) ?? [];
	const statuses = (chosen.length ? chosen : (LIST_EVERYTHING.status as string[])).filter(
		(status) => status !== 'draft' || options.includeDrafts !== false,
	);
	if (!statuses.length) {
		throw new NodeOperationError(
			this.getNode(),
			`Item ${itemIndex}: no status left to list: Status is only Draft and Include Drafts is off`,
			{ itemIndex, description: 'Turn Include Drafts on, or pick another Status.' },
		);
	}
	return statuses;
}

/**
 * Reads with POST and a JSON body, as Fliplet's editor does (the API takes where, scope and a
 * status list only in a body): every status and every audience unless the options narrow them.
 * Count Only returns one item `{count}`.
 */
export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	return await mapItems.call(this, items, async (itemIndex) => {
		const appId = await getAppId.call(this, itemIndex);
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const countOnly = this.getNodeParameter('countOnly', itemIndex, false) as boolean;
		const max = countOnly ? 0 : maxResults.call(this, itemIndex);
		const params: IDataObject = {};
		if (countOnly) params.count = true;
		else params.limit = Number.isFinite(max) ? max : RETURN_ALL_LIMIT;
		if (options.order) params.order = options.order;
		if (options.direction) params.direction = options.direction;
		if (options.includeDeleted) params.includeDeleted = true;
		const filter = filters.call(this, itemIndex);
		// Scopes narrow the list to those audiences; without them, every audience unless turned off.
		if (!filter.scope && options.includeAllScopes !== false) params.includeAllScopes = true;
		filter.status = statusesToList.call(this, options, itemIndex);
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: apiPath('apps', appId, 'notifications'),
			body: { ...params, ...filter },
			idempotent: true,
			itemIndex,
		});
		if (countOnly) return { count: readCount(this, body, itemIndex) };
		return takeFirst(listFrom(this.getNode(), body, 'notifications', itemIndex), max);
	});
}

/** The count-only answer is not documented: `{count: n}` or a bare number is accepted. */
function readCount(context: IExecuteFunctions, body: unknown, itemIndex: number): number {
	const value = typeof body === 'number' ? body : (body as IDataObject | undefined)?.count;
	if (typeof value === 'number') return value;
	throw new NodeOperationError(
		context.getNode(),
		'Unexpected response from Fliplet: no count in it',
		{
			itemIndex,
			description:
				'The API answered the count request in a shape this node does not know. Please report it with the response.',
		},
	);
}
