'use strict';

/**
 * Fixture records of each API area, added to a fresh state. A seed: (state) => void. Each area
 * keeps its own file here, so the base fixture in state.js stays small.
 */
const seeds = [
	require('./dataSources').seedDataSources,
	require('./organizations').seedOrganizations,
	require('./notifications').seedNotifications,
	require('./media').seedMedia,
];

module.exports = { seeds };
