import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { attributesIn, selectNaming } from '../../../helpers/columnForm';
import type { DataSourceTarget } from '../../../helpers/dataSourceTarget';
import { isObject } from '../../../helpers/isObject';
import { listFrom } from '../../../helpers/responses';
import { settledFlag } from '../../../helpers/settledFlag';
import { PAGES_AHEAD, stablePages, type PageRequest, type StablePage } from '../../../transport';
import type { ReadColumns } from './attributes';
import { readSizes } from './readSizes';
import type { RequestCount } from './requestCount';
import { selectQuery } from './selectQuery';

/** An entry as a read hands it on: its id and (the read columns of) its data. */
type ReadEntry = { id: number; data: IDataObject };

/**
 * The answer's own entry, checked, with its id as a number: a page of entries is not copied (a
 * copy would hold a second object per entry while the page is in use).
 */
function checkedEntry(this: IExecuteFunctions, raw: IDataObject): ReadEntry {
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
	raw.id = id;
	raw.data = data;
	return raw as ReadEntry;
}

function totalOf(body: unknown): number | undefined {
	// listFrom has already refused a body that is not an object or a list.
	const pagination = (body as { pagination?: { total?: unknown } }).pagination;
	return typeof pagination?.total === 'number' ? pagination.total : undefined;
}

export type EntryVisit = (id: number, data: IDataObject) => void;

/** A select of the data source (`where`, the columns to read) and how its entries are used. */
export interface EntryRead {
	columns: ReadColumns;
	where?: IDataObject;
	/** About how many entries the read will meet (see stablePages' `expected`). */
	expected?: number;
	/**
	 * What takes each entry. It is made once the first pages are asked for, so that the work of
	 * making it (Sync checks and keys its rows) is done while they travel: until the first page is
	 * in, `pause` lets the requests go out between slices of that work.
	 */
	prepare: (pause: () => Promise<void>) => Promise<EntryVisit>;
	/**
	 * Told the entry count the first answer reports (undefined without one) once that answer is
	 * in and `prepare` is done, before any entry is visited: false gives the read up there.
	 */
	goOn?: (total: number | undefined) => boolean;
}

/**
 * Every (matching) entry of the data source, read in pages ordered by entry id and handed to
 * `visit` as soon as its page arrives (so the pages' data is not all held at once). Pages are
 * anchored on the last id read (see stablePages), so an entry deleted or added by another writer
 * during the read never makes Sync skip or re-read another one. Reading stops at the total the API
 * reports, or else at a page with nothing new: a page shorter than asked may only mean the server
 * caps page sizes, and stopping there would make mirror mode delete entries it never saw. Returns
 * false when `goOn` gave the read up.
 */
export async function readById(
	this: IExecuteFunctions,
	target: DataSourceTarget,
	read: EntryRead,
	counter: RequestCount,
): Promise<boolean> {
	const select = async (page: PageRequest, abortSignal: AbortSignal, attributes?: string[]) => {
		const query = {
			...(read.where ? { where: read.where } : {}),
			...(attributes ? { attributes } : {}),
			order: [['id', 'ASC']],
			limit: page.limit,
			offset: page.offset,
			includePagination: true,
		};
		return await selectQuery.call(this, target, query, counter, abortSignal);
	};
	const { columns } = read;
	const entriesOf = (body: unknown) => listFrom(this.getNode(), body, 'entries');
	let firstTotal: number | undefined;
	const fetchPage = async (page: PageRequest, abortSignal: AbortSignal) => {
		// Named columns go in the form the platform reads (see selectNaming); whole entries need none.
		const body =
			columns === 'all'
				? await select(page, abortSignal)
				: await selectNaming(
						this,
						columns,
						async (form) =>
							await select(page, abortSignal, attributesIn(form, { columns, entryId: true })),
						entriesOf,
					);
		const items = entriesOf(body) as ReadEntry[];
		for (const raw of items) checkedEntry.call(this, raw);
		const total = totalOf(body);
		if (page.offset === 0) firstTotal = total;
		// The HTTP client may keep the answer it parsed until its connection is used again: without
		// its entries, it keeps no page once Sync has visited it.
		if (isObject(body)) delete body.entries;
		return { items, total };
	};
	const byId = {
		compare: (a: { id: number }, b: { id: number }) => a.id - b.id,
		outOfOrder: () =>
			new NodeOperationError(
				this.getNode(),
				'Unexpected response from Fliplet: entries not in id order',
				{
					description:
						'Sync reads the data source ordered by entry id (order [["id", "ASC"]]) to read it reliably while others write to it, and the API answered in another order. Nothing was changed. Please report it with the response.',
				},
			),
	};
	// Once the read is over, or given up (its visit or a page failed), pages still on their way,
	// their retries and their waits for the rate limit end.
	const readOver = new AbortController();
	const reading = { ahead: PAGES_AHEAD, expected: read.expected, signal: readOver.signal };
	const pages = stablePages(fetchPage, byId, readSizes.page, reading);
	try {
		// Each page is let go once its entries are visited, before the next is awaited: a page held
		// by a variable while the next one travels would be one page more in memory all along.
		let next: Promise<IteratorResult<StablePage<ReadEntry>>> | undefined = pages.next();
		// Awaited below, unless preparing fails first: then its answer concerns no one.
		const firstArrival = settledFlag(next);
		const visit = await read.prepare(async () => {
			if (!firstArrival.settled) await sleep(0);
		});
		let page: IteratorResult<StablePage<ReadEntry>> | undefined = await next;
		next = undefined;
		if (read.goOn && !read.goOn(firstTotal)) return false;
		while (!page.done) {
			for (const { id, data } of page.value.items) visit(id, data);
			page = undefined;
			page = await pages.next();
		}
		return true;
	} finally {
		readOver.abort();
		void pages.return(undefined);
	}
}
