'use strict';

const { badRequest, isObject } = require('../http');

/**
 * How the sandbox reads what the platform's own sources disagree on (docs/sandbox.md, "Disputed
 * readings"). The first choice of each is the default:
 * - `attributes`: `prefixed` (SPEC's example `id, data.Name`: the names are paths of the entry, a
 *   bare column name picks nothing) or `bare` (the source-checked docs: the names are columns
 *   picked off the entry's data; the entry keeps its own fields; `data.Name` picks nothing).
 * - `where`: `bare` (every witness's examples: keys are columns inside the entry's data;
 *   `data.Name` matches nothing) or `prefixed` (`data.<Column>` and the entry's own fields address
 *   the entry; other keys are still columns).
 * - `deleteAnswer`: `count` (SPEC and the REST docs: `{deletedCount}`) or `entries` (the
 *   source-checked JS docs: the deleted entries, `{entries}`).
 * - `mediaContents`: `stream` (the media REST docs: the contents route "streams" the file) or
 *   `redirect` (a public file's contents route sends the client to its CDN address; the docs show
 *   the API redirecting PDFs to the contents route, and say nothing on public files).
 * - `mediaFolderList`: `folderAlone` (`GET v1/media?folderId=` as the file-security docs send it)
 *   or `withOrganization` (the media REST docs: "provide the folderId as well as organizationId";
 *   without it, 400).
 * They live in the state, so a reset brings the defaults back.
 */
const READINGS = {
	attributes: ['prefixed', 'bare'],
	where: ['bare', 'prefixed'],
	deleteAnswer: ['count', 'entries'],
	mediaContents: ['stream', 'redirect'],
	mediaFolderList: ['folderAlone', 'withOrganization'],
};

const DEFAULTS = Object.fromEntries(
	Object.entries(READINGS).map(([name, choices]) => [name, choices[0]]),
);

/** @returns {{attributes: string, where: string, deleteAnswer: string, mediaContents: string, mediaFolderList: string}} */
function readingsOf(state) {
	return { ...DEFAULTS, ...state.readings };
}

/** Changes some readings (400 for an unknown name or choice); returns all of them. */
function setReadings(state, changes) {
	if (!isObject(changes)) throw badRequest('Send the readings to change as an object.');
	for (const [name, choice] of Object.entries(changes)) {
		const choices = READINGS[name];
		if (!choices) throw badRequest(`Unknown reading "${name}": one of ${Object.keys(READINGS)}.`);
		if (!choices.includes(choice))
			throw badRequest(`The reading "${name}" is one of ${choices.join(', ')}.`);
	}
	state.readings = { ...readingsOf(state), ...changes };
	return readingsOf(state);
}

module.exports = { READINGS, DEFAULTS, readingsOf, setReadings };
