import type { IDataObject } from 'n8n-workflow';

export interface PageRequest {
	offset: number;
	limit: number;
}

/**
 * Reads an offset/limit list page by page until `max` items (Infinity for all) or a short page.
 * `fetchPage` returns the items of one page. A page longer than asked means the endpoint ignores
 * `limit`/`offset`: its items are kept (up to `max`) and no further page is read, rather than
 * looping over the same list.
 */
export async function collectPages<T = IDataObject>(
	fetchPage: (page: PageRequest) => Promise<T[]>,
	max: number,
	pageSize: number,
): Promise<T[]> {
	const results: T[] = [];
	let offset = 0;
	while (results.length < max) {
		const limit = Math.min(Math.max(1, Math.floor(pageSize)), max - results.length);
		const page = await fetchPage({ offset, limit });
		if (page.length > limit) {
			results.push(...page.slice(0, max - results.length));
			break;
		}
		results.push(...page);
		if (page.length < limit) break;
		offset += page.length;
	}
	return results;
}
