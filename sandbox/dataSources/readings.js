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
 * - `foreignAttributes`: what a select does with `attributes` written in the other reading's form
 *   (a bare column name in the `prefixed` reading, `data.Name` in the `bare` one): `ignored` (it
 *   picks nothing) or `refused` (400, as a database refuses a column it does not know; the
 *   source-checked docs say `data.` "breaks the query").
 * - `deletedListPath`: `either` (the trash list answers `GET /v1/data-sources/deleted` with or
 *   without the trailing slash, as a router that ignores it does) or `slashOnly` (only the path
 *   Studio's editor calls, `deleted/`; without the slash it is a data source named "deleted").
 * - `updateStatus`: what a notification update without `status` sets: `draft` (SPEC's default)
 *   or `kept` (the editor's notes send `{data}` alone to a live notification).
 * - `updateOrderAt`: what a notification update without `orderAt` sets: `now` (SPEC's default) or
 *   `kept` (the editor leaves `orderAt` out unless it schedules).
 * - `auditLogLimit`: the most audit-log records one request may ask for: `studio` (JSON pages
 *   hold SPEC's 500, a CSV export up to the 100,000 Studio asks for), `capped` (SPEC's 500 for
 *   both: more is served as 500) or `refused` (SPEC's 500 for both: more answers 400).
 * - `hookTemplates`: `entry` (a hook's templates name the entry's columns and also `entry`,
 *   `dataSource` and `event`) or `columns` (only the entry's columns, as in every vendor example:
 *   `{{{entry.id}}}` renders empty). See hooks.js.
 * - `oneof`: `text` (every value compared as trimmed text in any case, as the other `$filters`
 *   conditions compare) or `typed` (the JS docs: `oneof` may be promoted to the database, which
 *   compares a text with texts and a number or a boolean with its own kind).
 * - `mediaContents`: `stream` (the media REST docs: the contents route "streams" the file) or
 *   `redirect` (a public file's contents route sends the client to its CDN address; the docs show
 *   the API redirecting PDFs to the contents route, and say nothing on public files).
 * - `mediaFolderList`: `folderAlone` (`GET v1/media?folderId=` as the file-security docs send it)
 *   or `withOrganization` (the media REST docs: "provide the folderId as well as organizationId";
 *   without it, 400).
 * - `mediaList`: what `GET v1/media` of an app or an organization answers: `location` (its root's
 *   files and folders only) or `belowRoot` (also every file and folder below it, apps' included
 *   for an organization, as Studio's file manager expects: it filters the list itself,
 *   `Fliplet/fliplet-widget-file-manager: js/interface.js`). A folder's list is its own in both.
 * - `mediaFolderParent`: the field a folder's record names its parent by, in list and create
 *   answers: `parentId` (the media REST docs' folder records, and what a create or a move sends) or
 *   `parentFolderId` (the field Studio's file manager filters an app's folders by, same file).
 * - `contentsImageSize`: what the contents route serves of an image asked for without `size`:
 *   `xlarge` (the media REST docs: "default size applied when not specified"; the sandbox cannot
 *   resize, so it sends the file and says `X-Sandbox-Transform: size=xlarge`) or `original` (the
 *   bytes stored).
 * - `hookValues`: how a hook's payload values are read: `any` (every string rendered, other JSON
 *   values kept as they are) or `strict` (every value compiled as a template, as the vendor's
 *   examples only ever give strings: a value that is not a string, or a name the entry does not
 *   hold, throws and the hook does not run). See hooks.js.
 * - `dataSourceList`: what `GET /v1/data-sources` without `appId` or `organizationId` answers:
 *   `own` (the token's own data sources, as the platform's sync agent and its Power Automate
 *   connector list them) or `contextRequired` (SPEC: one of them is required; 400 without).
 * They live in the state, so a reset brings the defaults back.
 */
const READINGS = {
	attributes: ['prefixed', 'bare'],
	where: ['bare', 'prefixed'],
	deleteAnswer: ['count', 'entries'],
	foreignAttributes: ['ignored', 'refused'],
	deletedListPath: ['either', 'slashOnly'],
	updateStatus: ['draft', 'kept'],
	updateOrderAt: ['now', 'kept'],
	auditLogLimit: ['studio', 'capped', 'refused'],
	hookTemplates: ['entry', 'columns'],
	oneof: ['text', 'typed'],
	mediaContents: ['stream', 'redirect'],
	mediaFolderList: ['folderAlone', 'withOrganization'],
	mediaList: ['location', 'belowRoot'],
	mediaFolderParent: ['parentId', 'parentFolderId'],
	contentsImageSize: ['xlarge', 'original'],
	hookValues: ['any', 'strict'],
	dataSourceList: ['own', 'contextRequired'],
};

const DEFAULTS = Object.fromEntries(
	Object.entries(READINGS).map(([name, choices]) => [name, choices[0]]),
);

/** @returns {Record<keyof typeof READINGS, string>} */
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
