import type { IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { dataSourcePath, getDataSourceTarget } from '../../Fliplet/helpers/dataSourceTarget';
import { isObject } from '../../Fliplet/helpers/isObject';
import { listFrom } from '../../Fliplet/helpers/responses';
import { flipletApiRequest } from '../../Fliplet/transport';
import { timeMs, type EventSource } from '../cursor';

const PAGE_SIZE = 500;
/**
 * Pages overlap by this many entries: an entry deleted (or moved by an update) between two page
 * reads shifts the rest back, and the overlap re-reads what shifted instead of skipping it.
 */
const OVERLAP = 25;

/**
 * New (createdAt) or new-or-updated (updatedAt) entries of a data source. A query's `where` only
 * addresses the entries' data columns, so the entries are read ordered by the time field and id,
 * from where the last poll stopped, and the cursor picks the new ones.
 */
export function dataSourceEntrySource(
	context: IPollFunctions,
	timeField: 'createdAt' | 'updatedAt',
): EventSource {
	// The locator reader only needs getNodeParameter and getNode, which a poll context has.
	const target = getDataSourceTarget.call(context as unknown as IExecuteFunctions, 0);
	const send = async (body: IDataObject) =>
		await flipletApiRequest.call(context, {
			method: 'POST',
			path: dataSourcePath(target, 'data', 'query'),
			qs: target.qs,
			body: { type: 'select', ...body },
			// A select changes nothing, so it may be sent again after a fault.
			idempotent: true,
		});
	const query = async (body: IDataObject) =>
		listFrom(context.getNode(), await send(body), 'entries');
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
		async *pages(since, offsetHint) {
			const order = [
				[timeField, 'ASC'],
				['id', 'ASC'],
			];
			let offset = Math.max(0, offsetHint - OVERLAP);
			let checkHint = offset > 0;
			for (;;) {
				const events = await query({ order, limit: PAGE_SIZE, offset });
				// Start from the hint only when the entry there is older than the cursor: then every
				// entry before it is older too. Otherwise (deletions moved things) read from the start.
				if (checkHint) {
					checkHint = false;
					const first = events[0];
					if (!first || !(timeMs(String(first[timeField])) < timeMs(since))) {
						offset = 0;
						continue;
					}
				}
				yield { offset, events };
				if (events.length < PAGE_SIZE) return;
				offset += events.length - OVERLAP;
			}
		},
	};
}
