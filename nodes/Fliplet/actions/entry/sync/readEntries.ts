import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { dataSourcePath, type DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { listFrom } from '../../../helpers/responses';
import { flipletApiRequest } from '../../../transport';
import type { ExistingEntry } from './diff';

export const READ_PAGE_SIZE = 5000;

function checkedEntry(
	this: IExecuteFunctions,
	raw: IDataObject,
): { id: number; data: IDataObject } {
	const id = Number(raw.id);
	const data = raw.data ?? {};
	if (!Number.isInteger(id) || typeof data !== 'object' || Array.isArray(data)) {
		throw new NodeOperationError(
			this.getNode(),
			'Unexpected response from Fliplet: an entry without id or data',
			{
				description:
					'The data source query answered in a shape Sync does not know, so nothing was changed. Please report it with the response.',
			},
		);
	}
	return { id, data: data as IDataObject };
}

function totalOf(body: unknown): number | undefined {
	const pagination = (body as { pagination?: { total?: unknown } } | undefined)?.pagination;
	return typeof pagination?.total === 'number' ? pagination.total : undefined;
}

/**
 * Every entry of the data source, read by id in pages, each turned by `keep` into what the diff
 * needs as soon as its page arrives (so the pages' data is not all held at once). Reading stops at the total the API reports,
 * or else at an empty page: a page shorter than asked may only mean the server caps page sizes,
 * and stopping there would make mirror mode delete entries it never saw.
 */
export async function readEntries(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	attributes: string[],
	keep: (id: number, data: IDataObject) => ExistingEntry,
	counter: { requests: number },
): Promise<ExistingEntry[]> {
	const entries: ExistingEntry[] = [];
	for (;;) {
		counter.requests++;
		const body = await flipletApiRequest.call(this, {
			method: 'POST',
			path: dataSourcePath(target, 'data', 'query'),
			qs: target.qs,
			body: {
				type: 'select',
				attributes,
				order: [['id', 'ASC']],
				limit: READ_PAGE_SIZE,
				offset: entries.length,
				includePagination: true,
			},
			idempotent: true,
		});
		const page = listFrom(this.getNode(), body, 'entries');
		for (const raw of page) {
			const { id, data } = checkedEntry.call(this, raw);
			entries.push(keep(id, data));
		}
		const total = totalOf(body);
		if (page.length === 0 || (total !== undefined && entries.length >= total)) return entries;
	}
}
