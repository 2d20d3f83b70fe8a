'use strict';

/**
 * Every API area's routes. A route: { method, path, area? (its rate-limit bucket), rateArea?({state,
 * params}) (the bucket when it depends on the request, e.g. AI by plan), auth? ('required' by
 * default, 'optional' for public data sources and files), queryToken? (the token may also come as
 * ?auth_token=), rateKey?({state, principal, params}) (whose limit a
 * request counts against; undefined or absent: the token's), dayCapKey?({state, principal, params})
 * (the organization whose cap a day it counts against, for areas with one), handler(ctx) }.
 * A handler returns { status?, body?, headers? } (no body: an empty response) or throws HttpError.
 */
const allRoutes = [
	...require('./user').routes,
	...require('./apps').routes,
	...require('./communicate').routes,
	...require('./notifications').routes,
	// Before the data source routes: `/v1/data-sources/deleted` is not a data source named so.
	...require('./dataSourceExtras').routes,
	...require('./dataSources').routes,
	...require('./organizations').routes,
	...require('./ai').routes,
	...require('./media').routes,
];

module.exports = { allRoutes };
