'use strict';

const { openDataSource } = require('../dataSources/access');
const store = require('../dataSources/store');
const trash = require('../dataSources/trash');

const AREA = 'dataSources';

/**
 * Data-source routes beyond the public docs, which the platform's own tools use (FACTS):
 * - `GET /v1/data-sources/:id/data`: every entry at once, `{entries}` (no paging), as the sync
 *   agent reads a data source. (Its write, `PUT /v1/data-sources/:id/data` with the entry's data
 *   object, is the documented insert call.)
 * - `POST /v1/data-sources/:id/restore`: brings back a deleted data source (the editor's trash).
 */
const routes = [
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
