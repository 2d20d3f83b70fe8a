/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { callSandbox, TOKENS, type Sandbox } from '../harness';

/** Staff (app 11, organization 1): the data source the file tests write their form entries to. */
export const STAFF = 100;
export const STAFF_LOCATOR = { __rl: true, mode: 'id', value: String(STAFF) };
/** The user id of the Staff Directory app token (a file rule's `{tokens: [...]}` names it). */
export const APP_TOKEN_ID = 102;

export const PHOTO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
export const RECEIPT = Buffer.from('%PDF-1.4 receipt of a damaged chair');

export interface FormFile {
	column: string;
	name: string;
	type: string;
	bytes: Buffer;
	/** Sent as `<column>[]`, as a form's file field: the column holds a list. */
	list?: boolean;
}

/**
 * An entry a form submitted with files, written as the platform's form builder writes it (the JS
 * API's insert with FormData): text parts and file parts in one multipart insert.
 */
export async function formEntry(
	sandbox: Sandbox,
	data: Record<string, string>,
	files: FormFile[],
	token = TOKENS.app,
): Promise<{ id: number; data: Record<string, any> }> {
	const form = new FormData();
	for (const [name, value] of Object.entries(data)) form.append(name, value);
	for (const file of files) {
		form.append(
			file.list ? `${file.column}[]` : file.column,
			new Blob([file.bytes], { type: file.type }),
			file.name,
		);
	}
	const answer = await callSandbox(sandbox, 'PUT', `/v1/data-sources/${STAFF}/data`, form, token);
	expect(answer.status).toBe(200);
	return answer.body;
}

/**
 * Sets app 11's root media rules (with a Studio user token, as the platform asks): the fallback of
 * every file its entries store. `null` leaves no rule: nothing is readable without a token that
 * manages the organization's media.
 */
export async function setAppFileRules(sandbox: Sandbox, rules: unknown[] | null): Promise<void> {
	const answer = await callSandbox(
		sandbox,
		'PUT',
		'/v1/media/apps/11/accessRules',
		{ accessRules: rules },
		TOKENS.studio,
	);
	expect(answer.status).toBe(200);
}

/** App 11's files readable only by the Staff Directory app token: private files. */
export const readableByAppToken = [{ type: ['read'], allow: { tokens: [APP_TOKEN_ID] } }];

/**
 * An entry of Staff with a private photo (`Photo`, readable by the app token, read through the
 * API's contents route): app 11's files are made private first.
 */
export async function privatePhotoEntry(
	sandbox: Sandbox,
	bytes: Buffer = PHOTO,
	name = 'lamp.png',
): Promise<{ id: number; data: Record<string, any> }> {
	await setAppFileRules(sandbox, readableByAppToken);
	return await formEntry(sandbox, { Name: 'Lamp' }, [
		{ column: 'Photo', name, type: 'image/png', bytes },
	]);
}

/**
 * An entry of Staff whose columns hold what another writer put there (a URL of any kind in a file
 * column), written through the API as it is.
 */
export async function plantedEntry(
	sandbox: Sandbox,
	data: Record<string, unknown>,
): Promise<{ id: number; data: Record<string, any> }> {
	const answer = await callSandbox(sandbox, 'PUT', `/v1/data-sources/${STAFF}/data`, data);
	expect(answer.status).toBe(200);
	return answer.body;
}

/** App 11's files readable by a token that is not the Staff Directory one: private to it. */
export const readableByAnotherToken = [{ type: ['read'], allow: { tokens: [999] } }];

/** Stores organization 1's uploads encrypted from now on. */
export async function encryptFiles(sandbox: Sandbox): Promise<void> {
	const answer = await callSandbox(
		sandbox,
		'POST',
		'/__sandbox/encrypted-files',
		{ organizationId: 1, encrypted: true },
		null,
	);
	expect(answer.status).toBe(200);
}

/**
 * A server that stands for "another host": files placed in entries may point at it, and the
 * node must never send it a request. It answers 200 to anything and records what it received.
 */
export async function startOtherHost() {
	const received: Array<{ path: string; headers: http.IncomingHttpHeaders }> = [];
	const server = http.createServer((req, res) => {
		received.push({ path: req.url ?? '', headers: req.headers });
		res.writeHead(200, { 'Content-Type': 'image/png' });
		res.end(PHOTO);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** The Entry → Get parameters for an entry of Staff, with Download Files on. */
export const getWithFiles = (entryId: number, extra: Record<string, unknown> = {}) => ({
	resource: 'entry',
	operation: 'get',
	dataSource: STAFF_LOCATOR,
	entryId: String(entryId),
	downloadFiles: true,
	...extra,
});

/** Requests to the API's media contents route, and the token each carried. */
export const contentsRequests = (sandbox: Sandbox) =>
	sandbox.requests.filter((request) => /^\/v1\/media\/files\/\d+\/contents/.test(request.path));
