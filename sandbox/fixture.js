'use strict';

const { createState } = require('./state');
const { seeds } = require('./seeds');

/**
 * A fresh copy of the sandbox's fixture: the base state (organizations, apps, tokens) with each
 * API area's seed records added. Seeds build on the state, so the state never needs the seeds.
 * @param {{ region?: string }} [options]
 */
function createFixtureState(options = {}) {
	const state = createState(options);
	for (const seed of seeds) seed(state);
	return state;
}

module.exports = { createFixtureState };
