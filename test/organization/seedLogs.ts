/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The sandbox is plain JavaScript so scripts can run it without a build.
const seeds = require('../../sandbox/seeds/organizations');

export const addLog: (state: unknown, fields?: Record<string, unknown>) => Record<string, any> =
	seeds.addLog;
export const ANALYTICS_TYPES: string[] = seeds.ANALYTICS_TYPES;
