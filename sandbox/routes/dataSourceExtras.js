'use strict';

const { requireApp } = require('../access');
const { openDataSource } = require('../dataSources/access');
const store = require('../dataSources/store');
const trash = require('../dataSources/trash');
const versions = require('../dataSources/versions');
const { readingsOf } = require('../dataSources/readings');

const AREA = 'dataSources';

/**
 * Data-source routes beyond the public docs, which the platform's own tools use (FACTS):
 * - `GET /v1/data-sources/:id/data`: every entry at once, `{entries}` (no paging), as the sync
 *   agent reads a data source. (Its write, `PUT /v1/data-sources/:id/data` with the entry's data
 *   object, is the documented insert call.)
 * - `POST /v1/data-sources/:id/restore`: brings back a deleted data source (the editor's trash).
 * - `GET /v1/data-sources/deleted/` (optional `appId`): the deleted data sources, `{dataSources}`
 *   each with `deletedAt`; `DELETE /v1/data-sources/deleted/:id` removes one for good. Studio's
 *   editor calls the list with the trailing slash; without it the reading `deletedListPath`
 *   decides (readings.js): the same list, or a data source named "deleted".
 * These come before the routes of `/v1/data-sources/:id`, which would read "deleted" as a name.
 */
const routes = [
	{
		method: 'GET',
		path: '/v1/data-sources/deleted',
		area: AREA,
		handler: (ctx) => {
			const { state, principal, query, path } = ctx;
			if (readingsOf(state).deletedListPath === 'slashOnly' && !path.endsWith('/')) {
				// Only `deleted/` is the trash: here "deleted" is a data source's name.
				return {
					body: { dataSource: openDataSource({ ...ctx, params: { ds: 'deleted' } }, 'read') },
				};
			}
			let dataSources = trash.deletedOf(state, principal);
			if (query.appId !== undefined && query.appId !== '') {
				const { publishedId } = requireApp(state, principal, query.appId);
				dataSources = dataSources.filter((dataSource) => dataSource.appId === publishedId);
			}
			return { body: { dataSources } };
		},
	},
	{
		method: 'DELETE',
		path: '/v1/data-sources/deleted/:id',
		area: AREA,
		handler: ({ state, principal, params }) => {
			versions.dropVersions(state, trash.purge(state, principal, params.id));
			return { status: 200 };
		},
	},
	{
		method: 'GET',
		path: '/v1/data-sources/:ds/data',
		area: AREA,
		auth: 'optional',
		handler: (ctx) => {
			const dataSource = openDataSource(ctx, 'read');
			return { body: { entries: store.entriesOf(ctx.state, dataSource.id) } };
		},
	},
	{
		method: 'POST',
		path: '/v1/data-sources/:ds/restore',
		area: AREA,
		handler: ({ state, principal, params }) => ({
			body: { dataSource: trash.restore(state, principal, params.ds) },
		}),
	},
];

module.exports = { routes };
