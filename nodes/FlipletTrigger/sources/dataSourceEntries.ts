import type { IDataObject, IHookFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { dataSourcePath, type DataSourceTarget } from '../../Fliplet/helpers/dataSourceTarget';
import { isObject } from '../../Fliplet/helpers/isObject';
import { listFrom } from '../../Fliplet/helpers/responses';
import {
	flipletApiRequest,
	PAGES_AHEAD,
	stablePages,
	type PageRequest,
} from '../../Fliplet/transport';
import { timeMs, type EventSource } from '../cursor';

const PAGE_SIZE = 500;

/**
 * New (createdAt) or new-or-updated (updatedAt) entries of a data source. A query's `where` only
 * addresses the entries' data columns, so the entries are read ordered by the time field and id,
 * from where the last poll stopped, in stable pages (an entry deleted or updated meanwhile never
 * makes the read skip another), and the cursor picks the new ones. The Instant Trigger reads its
 * data source the same way when a hook call does not say which entry changed.
 */
export function dataSourceEntrySource(
	context: IPollFunctions | IWebhookFunctions | IHookFunctions,
	target: DataSourceTarget,
	timeField: 'createdAt' | 'updatedAt',
): EventSource {
	const send = async (body: IDataObject) =>
		await flipletApiRequest.call(context, {
			method: 'POST',
			path: dataSourcePath(target, 'data', 'query'),
			qs: target.qs,
			body: { type: 'select', ...body },
			// A select changes nothing, so it may be sent again after a fault.
			idempotent: true,
		});
	const byTime = {
		compare: (a: IDataObject, b: IDataObject) =>
			timeMs(String(a[timeField])) - timeMs(String(b[timeField])) || Number(a.id) - Number(b.id),
		outOfOrder: () =>
			new NodeOperationError(
				context.getNode(),
				`Unexpected response from Fliplet: entries not in ${timeField} order`,
				{
					description: `The trigger reads entries ordered by ${timeField} and entry ID so that others writing meanwhile cannot make it miss one, and the API answered in another order. Please report it with the response.`,
				},
			),
	};
	return {
		key: `entry:${timeField}:${target.ref}`,
		timeOf: (entry) => String(entry[timeField]),
		async latest() {
			const response = await send({
				order: [
					[timeField, 'DESC'],
					['id', 'DESC'],
				],
				limit: 1,
				includePagination: true,
			});
			const [entry] = listFrom(context.getNode(), response, 'entries');
			if (!entry) return undefined;
			// The newest entry is the last one in the ascending order pages are read in.
			const total =
				isObject(response) && isObject(response.pagination) ? response.pagination.total : undefined;
			return {
				event: entry,
				offset: typeof total === 'number' && total > 0 ? total - 1 : undefined,
			};
		},
		async *pages(since, offsetHint, wanted) {
			const order = [
				[timeField, 'ASC'],
				['id', 'ASC'],
			];
			const fetchPage = async ({ offset, limit }: PageRequest) => {
				const response = await send({ order, limit, offset, includePagination: true });
				const total =
					isObject(response) && isObject(response.pagination)
						? response.pagination.total
						: undefined;
				return {
					items: listFrom(context.getNode(), response, 'entries'),
					total: typeof total === 'number' ? total : undefined,
				};
			};
			// Resuming at the hint (where the last poll saw the first entry at or after `since`), the
			// anchor is "just before since": the page, starting one entry earlier, counts only if it
			// starts with an entry older than that (else deletions moved things and it is read again
			// from further back).
			const start =
				since === undefined
					? undefined
					: { anchor: { [timeField]: since, id: -Infinity }, offset: Math.max(0, offsetHint - 1) };
			const reading = { start, ahead: PAGES_AHEAD, wanted };
			for await (const page of stablePages(fetchPage, byTime, PAGE_SIZE, reading)) {
				// A page of old entries only still tells the cursor where reading got to.
				if (page.items.length) yield { offset: page.offset, events: page.items };
				else if (page.last) yield { offset: page.last.at, events: [page.last.item] };
			}
		},
	};
}
