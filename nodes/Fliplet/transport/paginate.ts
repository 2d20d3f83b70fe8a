import type { IDataObject } from 'n8n-workflow';

export interface PageRequest {
	offset: number;
	limit: number;
}

/**
 * Reads an offset/limit list page by page until `max` items (Infinity for all) or a short page.
 * `fetchPage` returns the items of one page.
 */
export async function collectPages<T = IDataObject>(
	fetchPage: (page: PageRequest) => Promise<T[]>,
	max: number,
	pageSize: number,
): Promise<T[]> {
	const results: T[] = [];
	let offset = 0;
	while (results.length < max) {
		const limit = Math.min(pageSize, max - results.length);
		const page = await fetchPage({ offset, limit });
		results.push(...page);
		if (page.length < limit) break;
		offset += page.length;
	}
	return results;
}
