'use strict';

const { createHash } = require('node:crypto');
const http = require('node:http');
const { HttpError, compilePath, isObject } = require('./http');
const { parseMultipart } = require('./multipart');
const { RateLimiter } = require('./rateLimit');
const { tokenRegion } = require('./state');
const { createFixtureState } = require('./fixture');
const { allRoutes } = require('./routes');
const { controlRoutes } = require('./control');
const { handleCdn } = require('./media/cdn');

/**
 * Test tooling: a client may put `/__tag/<tag>` before an API path (e.g. as the end of its base
 * URL); the request is served as if it had none and recorded with that `tag`, so a test can tell
 * which of its clients sent it.
 */
const TAG_PREFIX = /^\/__tag\/([^/]+)(\/.*)$/;

const UNAUTHORISED = {
	error: 'not authorised',
	message: "The auth_token provided doesn't belong to any user.",
};

/**
 * A fault the next matching API requests meet (control: POST /__sandbox/faults, or `injectFault`);
 * only requests to an existing route take one, after their body was parsed.
 * - mode: `status-before` answers `status` without running the handler; `status-after` runs the
 *   handler (its effect stays) and then answers `status`; `drop-before` / `drop-after` destroy the
 *   connection before / after the handler ran; `delay` runs the handler and answers `delayMs` later
 *   (or never, if the client closes the connection first).
 * - count: how many matching requests meet it (default 1); method / path (a regex) narrow the match.
 * - status: the status of the `status-*` modes (default 500).
 * - body: the JSON body of the `status-*` modes instead of `{message: 'Injected fault…'}`, e.g. a
 *   429 `{message, nextValidRequestDate}` or a 400 `{message, type: 'datasource.access', payload}`.
 * - headers: extra response headers of the `status-*` modes, e.g. `{'Retry-After': '1'}`.
 * - waitFor (in-process tests only): a `status-before` answer waits for this promise, e.g. until
 *   the client's next request has arrived, so that request is on its way when this one fails; a
 *   `stamp-at-start` write waits for it before it is stored.
 * - match (in-process tests only): the fault only meets a request whose parsed body this accepts,
 *   e.g. the commit that carries a given row, whatever order concurrent requests arrive in.
 * - `cut-after` runs the handler and starts its answer (status, headers with the full
 *   Content-Length), then destroys the connection after `cutAtBytes` bytes of the body (default:
 *   half of it): a body cut mid-way.
 * - `drip-after` runs the handler and sends its answer `dripBytes` bytes (default 1) every
 *   `dripMs` (default 400), until it is all sent or the client closes the connection: a slow-drip
 *   body that keeps the socket busy.
 * - `stall-after` runs the handler and sends its answer's status and headers (with the full
 *   Content-Length), then nothing more until the client closes the connection: a host that stalls
 *   once its answer has started.
 * - `stamp-at-start`: a write whose rows carry the time it started but show only when it ends, as
 *   a long database commit does. The sandbox's clock is read when the request is taken, the
 *   handler runs `delayMs` later (default 1000) or once `waitFor` settles (in-process tests), and
 *   every time it stamps (createdAt, updatedAt) is the time read at the start. Requests served
 *   meanwhile do not see its rows, so a test can place reads (a poll) in between.
 * - `ignore-offset` runs the handler as if the request had no `offset` (in its query or its JSON
 *   body): every page is the first one, a page that does not advance. The request is recorded as
 *   sent.
 * - `land-late`: a write the server holds while its answer is lost, as behind a gateway that gives
 *   up (502/504) or a client that times out while the server is still busy. The request is taken
 *   (its token and rate limit checked) and answered at once with `status` (default 504), or its
 *   connection dropped with `drop: true`; its handler runs later, its effect staying: when
 *   `waitFor` settles (in-process tests), `delayMs` later when given, or when the held writes are
 *   landed (`landHeld()`, `POST /__sandbox/held/land`). A reset discards what is still held.
 * @typedef {{ mode: 'status-before'|'status-after'|'drop-before'|'drop-after'|'delay'|'cut-after'|'drip-after'|'stall-after'|'stamp-at-start'|'ignore-offset'|'land-late',
 *   count?: number, status?: number, body?: unknown, headers?: Record<string, string>,
 *   delayMs?: number, cutAtBytes?: number, dripBytes?: number, dripMs?: number, method?: string,
 *   path?: string, waitFor?: Promise<unknown>, match?: (body: any) => boolean, drop?: boolean }} Fault
 */

/**
 * A request taken by a `land-late` fault whose handler has not run yet; `land()` runs it (once).
 * @typedef {{ record: any, land: () => Promise<void> }} HeldWrite
 */

/**
 * @typedef {{ run: (state: any, body: any) => void | Promise<void>, nth?: number, method?: string,
 *   path?: string }} Interleave
 */

/**
 * A local, in-memory simulator of the Fliplet REST API.
 * `hashBodies`: each request's record carries `bodyHash`, a hash of its raw body, so a benchmark can
 * tell one request sent again from another with the same method and path.
 * @param {{ region?: string, rateLimits?: boolean, limits?: Record<string, {limit: number, windowMs: number}>, log?: boolean, hashBodies?: boolean }} [options]
 */
function createSandbox(options = {}) {
	const sandbox = {
		state: createFixtureState({ region: options.region }),
		rateLimiter: new RateLimiter(options.rateLimits ?? true, options.limits),
		hashBodies: options.hashBodies === true,
		/** @type {Array<{method: string, path: string, query: Record<string, string>, headers: Record<string, string|string[]|undefined>, body: any, bytes: number, status?: number, at: number, reopensAt?: number, tag?: string}>} */
		requests: [],
		/** @type {Fault[]} */
		faults: [],
		/** @type {Interleave[]} */
		interleaves: [],
		/** @type {HeldWrite[]} the writes of `land-late` faults not landed yet, oldest first */
		held: [],
		/** @type {Set<(record: any) => void>} called with each API request as it is recorded */
		requestListeners: new Set(),
		url: '',
		/** @type {http.Server | undefined} */
		server: undefined,
		/** The CDN-like host of public files (sandbox/media/cdn.js): its own server and origin. */
		cdnUrl: '',
		/** @type {http.Server | undefined} */
		cdnServer: undefined,
		/** @type {Array<{method: string, path: string, query: Record<string, string>, headers: Record<string, string|string[]|undefined>, status: number, at: number}>} */
		cdnRequests: [],
		/** Where uploaded files are served: the API host and the CDN-like host. */
		urls() {
			return { api: sandbox.url, cdn: sandbox.cdnUrl };
		},
		reset() {
			sandbox.state = createFixtureState({ region: options.region });
			sandbox.rateLimiter.reset();
			sandbox.requests.length = 0;
			sandbox.cdnRequests.length = 0;
			sandbox.faults.length = 0;
			sandbox.interleaves.length = 0;
			sandbox.held.length = 0;
			sandbox.requestListeners.clear();
		},
		/**
		 * Lands every write a `land-late` fault holds, oldest first: their handlers run now, on the
		 * state as it is. Returns how many landed.
		 */
		async landHeld() {
			const held = sandbox.held.splice(0);
			for (const write of held) await write.land();
			return held.length;
		},
		/**
		 * Test API: another writer acting between two requests. `run(state, body)` runs just before
		 * the handler of the `nth` (default 1) matching API request, once. Cleared by `reset`.
		 * @param {Interleave} interleave
		 */
		beforeHandling(interleave) {
			sandbox.interleaves.push({ nth: 1, ...interleave });
		},
		/**
		 * Calls `listener` with each API request when it is recorded, before its route runs or a
		 * fault is looked for (so a listener can arm a fault for that very request). Removed by the
		 * returned function, by `reset()` and by `stop()`.
		 * @param {(record: any) => void} listener
		 */
		onRequest(listener) {
			sandbox.requestListeners.add(listener);
			return () => sandbox.requestListeners.delete(listener);
		},
		/** @param {Fault} fault */
		injectFault(fault) {
			sandbox.faults.push({ count: 1, ...fault });
		},
		/**
		 * Starts the API on `port` and the CDN-like host on `cdnPort` (0: any free port).
		 * @param {number} [port] @param {string} [host] @param {number} [cdnPort]
		 */
		async start(port = 0, host = '127.0.0.1', cdnPort = 0) {
			const server = await listen(port, host, (req, res) => {
				handle(sandbox, req, res).catch((error) => {
					if (!res.headersSent) send(res, 500, { message: `Sandbox failure: ${error.message}` });
				});
			});
			sandbox.server = server;
			sandbox.url = `http://${host}:${server.address().port}`;
			const cdn = await listen(cdnPort, host, (req, res) => handleCdn(sandbox, req, res));
			sandbox.cdnServer = cdn;
			sandbox.cdnUrl = `http://${host}:${cdn.address().port}`;
			return sandbox.url;
		},
		async stop() {
			sandbox.requestListeners.clear();
			const servers = [sandbox.server, sandbox.cdnServer].filter(Boolean);
			sandbox.server = undefined;
			sandbox.cdnServer = undefined;
			for (const server of servers) {
				server.closeAllConnections?.();
				await new Promise((resolve) => server.close(() => resolve(undefined)));
			}
		},
	};
	return sandbox;
}

/**
 * An HTTP server listening on `port` of `host`.
 * @param {number} port @param {string} host @param {http.RequestListener} listener
 * @returns {Promise<http.Server & { address(): import('node:net').AddressInfo }>}
 */
async function listen(port, host, listener) {
	const server = http.createServer(listener);
	server.keepAliveTimeout = 1000;
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve(undefined);
		});
	});
	return /** @type {any} */ (server);
}

const compiledRoutes = allRoutes.map((route) => ({ ...route, match: compilePath(route.path) }));
const compiledControl = controlRoutes.map((route) => ({
	...route,
	match: compilePath(route.path),
}));

/** @param {http.IncomingMessage} req */
function readBody(req) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {unknown} [body]
 * @param {Record<string, string>} [headers]
 */
function send(res, status, body, headers = {}) {
	const answer = encodeAnswer(body, headers);
	res.writeHead(status, answer.headers);
	res.end(answer.bytes);
}

/**
 * The status line, headers and bytes `send` would write for an answer.
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 * @returns {{ headers: Record<string, string | number>, bytes: Buffer }}
 */
function encodeAnswer(body, headers = {}) {
	if (Buffer.isBuffer(body))
		return { headers: { 'Content-Length': body.length, ...headers }, bytes: body };
	const bytes = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body));
	const type = body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' };
	return { headers: { ...type, 'Content-Length': bytes.length, ...headers }, bytes };
}

/**
 * Writes an answer's status and headers and only `cutAt` bytes of its body, then destroys the
 * connection: the client sees a body cut mid-way.
 * @param {http.ServerResponse} res
 */
function sendCut(res, status, body, headers, cutAt) {
	const answer = encodeAnswer(body, headers);
	const keep = Math.min(
		answer.bytes.length,
		Math.max(0, cutAt ?? Math.floor(answer.bytes.length / 2)),
	);
	res.writeHead(status, answer.headers);
	res.write(answer.bytes.subarray(0, keep), () => res.destroy());
}

/**
 * Writes an answer a few bytes at a time, `everyMs` apart, until it is sent or the client leaves.
 * @param {http.ServerResponse} res
 */
async function sendDripping(res, status, body, headers, bytesPerDrip = 1, everyMs = 400) {
	const answer = encodeAnswer(body, headers);
	res.writeHead(status, answer.headers);
	for (let at = 0; at < answer.bytes.length && !res.destroyed; at += bytesPerDrip) {
		res.write(answer.bytes.subarray(at, at + bytesPerDrip));
		// One wait per drip, its close listener removed with it (a long drip would pile them up).
		await new Promise((resolve) => {
			const done = () => {
				clearTimeout(timer);
				res.off('close', done);
				resolve(undefined);
			};
			const timer = setTimeout(done, everyMs);
			res.once('close', done);
		});
	}
	if (!res.destroyed) res.end();
}

/**
 * Calls `callback` once if the client goes away (closes its connection) before the whole answer
 * was sent, e.g. a client that cancelled its request while the handler's work was in progress.
 * @param {http.ServerResponse} res
 * @param {() => void} callback
 */
function onClientGone(res, callback) {
	const check = () => {
		if (!res.writableFinished) callback();
	};
	if (res.closed) check();
	else res.once('close', check);
}

/**
 * The query and body of a request without their `offset` (copies; the record keeps what was sent).
 * @param {Record<string, string>} query
 * @param {any} body
 */
function withoutOffset(query, body) {
	const restOfQuery = { ...query };
	delete restOfQuery.offset;
	if (!isObject(body) || !('offset' in body)) return { query: restOfQuery, body };
	const restOfBody = { ...body };
	delete restOfBody.offset;
	return { query: restOfQuery, body: restOfBody };
}

/** @param {Buffer} raw @param {string} contentType */
function parseBody(raw, contentType) {
	if (!raw.length) return undefined;
	if (/multipart\/form-data/i.test(contentType))
		return { multipart: parseMultipart(raw, contentType) };
	if (/json/i.test(contentType) || !contentType) {
		try {
			return JSON.parse(raw.toString('utf8'));
		} catch {
			throw new HttpError(400, 'The request body is not valid JSON');
		}
	}
	return raw.toString('utf8');
}

function takeFault(sandbox, method, path, body) {
	const index = sandbox.faults.findIndex(
		(fault) =>
			(!fault.method || fault.method.toUpperCase() === method) &&
			(!fault.path || new RegExp(fault.path).test(path)) &&
			(!fault.match || fault.match(body)),
	);
	if (index === -1) return undefined;
	const fault = sandbox.faults[index];
	fault.count = (fault.count ?? 1) - 1;
	if (fault.count <= 0) sandbox.faults.splice(index, 1);
	return fault;
}

/** Runs (once) the interleaves whose `nth` matching request this is. */
async function runInterleaves(sandbox, method, path, body) {
	for (const interleave of [...sandbox.interleaves]) {
		if (interleave.method && interleave.method.toUpperCase() !== method) continue;
		if (interleave.path && !new RegExp(interleave.path).test(path)) continue;
		interleave.nth -= 1;
		if (interleave.nth > 0) continue;
		sandbox.interleaves.splice(sandbox.interleaves.indexOf(interleave), 1);
		await interleave.run(sandbox.state, body);
	}
}

/**
 * A `stamp-at-start` write: reads the clock now, then waits until the write may show (its
 * `waitFor`, else `delayMs`). Returns the time read.
 * @param {Fault} fault
 */
async function startEarly(sandbox, fault) {
	const startedAt = sandbox.state.now();
	await (fault.waitFor ?? new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 1000)));
	return startedAt;
}

/**
 * Runs `handle` with the sandbox's clock showing `at` (when given) for its synchronous part,
 * where every route stamps its rows, so nothing served meanwhile sees that clock.
 * @template T @param {() => T} handle @returns {T}
 */
function withClockAt(state, at, handle) {
	if (at === undefined) return handle();
	const clock = state.now;
	state.now = () => at;
	try {
		return handle();
	} finally {
		state.now = clock;
	}
}

/**
 * Keeps a `land-late` write to run later (see Fault): it lands once, when its `waitFor` settles,
 * `delayMs` later or when the held writes are landed, unless a reset discarded it first. The
 * record says when it landed (`landedLate`) and with what status (`landedStatus`).
 * @param {Fault} fault @param {() => Promise<void>} handle
 */
function holdToLandLate(sandbox, record, fault, handle) {
	const state = sandbox.state;
	let landed = false;
	const write = {
		record,
		land: async () => {
			if (landed) return;
			landed = true;
			const at = sandbox.held.indexOf(write);
			if (at >= 0) sandbox.held.splice(at, 1);
			// A reset since: the data it would write is gone.
			if (sandbox.state !== state) return;
			record.landedLate = true;
			try {
				await handle();
				record.landedStatus = 200;
			} catch (error) {
				record.landedStatus = error instanceof HttpError ? error.status : 500;
			}
		},
	};
	sandbox.held.push(write);
	if (fault.waitFor) void fault.waitFor.then(write.land, write.land);
	if (fault.delayMs !== undefined) setTimeout(() => void write.land(), fault.delayMs);
}

/**
 * @param {ReturnType<typeof createSandbox>} sandbox
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
async function handle(sandbox, req, res) {
	const url = new URL(req.url ?? '/', 'http://sandbox.local');
	const method = (req.method ?? 'GET').toUpperCase();
	const tagged = TAG_PREFIX.exec(url.pathname);
	const path = tagged ? tagged[2] : url.pathname;
	const query = Object.fromEntries(url.searchParams.entries());
	const raw = await readBody(req);
	const contentType = String(req.headers['content-type'] ?? '');

	if (path.startsWith('/__sandbox/')) {
		for (const route of compiledControl) {
			const params = route.method === method ? route.match(path) : null;
			if (params) {
				const result = await route.handler({
					sandbox,
					params,
					query,
					body: parseBody(raw, contentType),
				});
				return send(res, result?.status ?? 200, result?.body ?? {});
			}
		}
		return send(res, 404, { message: `No sandbox control route ${method} ${path}` });
	}

	const record = {
		method,
		path,
		query,
		headers: { ...req.headers },
		body: undefined,
		bytes: raw.length,
		status: undefined,
		at: Date.now(),
	};
	if (tagged) record.tag = tagged[1];
	if (sandbox.hashBodies)
		record.bodyHash = createHash('sha1').update(raw).digest('hex').slice(0, 16);
	// The client left before the whole answer was written (it gave up, or its run was stopped);
	// a connection the sandbox itself cuts (drop-*, cut-after) is not the client leaving.
	let hungUpBySandbox = false;
	// In-process callers may await the connection's end (not part of the recorded data).
	Object.defineProperty(record, 'closed', {
		value: new Promise((resolve) => {
			res.once('close', () => {
				if (!res.writableFinished && !hungUpBySandbox) record.abandoned = true;
				resolve(undefined);
			});
		}),
	});
	sandbox.requests.push(record);
	for (const listener of [...sandbox.requestListeners]) listener(record);

	const respond = (status, body, headers) => {
		record.status = status;
		send(res, status, body, headers);
	};

	let route;
	let params = null;
	for (const candidate of compiledRoutes) {
		if (candidate.method !== method) continue;
		params = candidate.match(path);
		if (params) {
			route = candidate;
			break;
		}
	}
	if (!route || !params) return respond(404, { message: `Cannot ${method} ${path}` });

	try {
		record.body = parseBody(raw, contentType);
	} catch (error) {
		return respond(error.status ?? 400, error.body ?? { message: error.message });
	}

	const fault = takeFault(sandbox, method, path, record.body);
	if (fault?.mode === 'drop-before') {
		record.status = 0;
		hungUpBySandbox = true;
		return req.socket.destroy();
	}
	if (fault?.mode === 'status-before') {
		if (fault.waitFor) await fault.waitFor;
		return respond(fault.status ?? 500, fault.body ?? { message: 'Injected fault' }, fault.headers);
	}

	// A route may also take the token as ?auth_token= (the media contents route, as apps send it).
	const token =
		typeof req.headers['auth-token'] === 'string'
			? req.headers['auth-token']
			: route.queryToken && typeof query.auth_token === 'string'
				? query.auth_token
				: undefined;
	const known = token ? sandbox.state.tokens.get(token) : undefined;
	const principal = known && tokenRegion(token ?? '') === sandbox.state.region ? known : undefined;
	const auth = route.auth ?? 'required';
	if (auth === 'required' && !principal) return respond(401, UNAUTHORISED);
	if (token && !principal && auth === 'optional') return respond(401, UNAUTHORISED);

	const caller = token ?? 'anonymous';
	const rateKey = route.rateKey?.({ state: sandbox.state, principal, params }) ?? caller;
	const area = route.rateArea?.({ state: sandbox.state, params }) ?? route.area;
	const capKey = route.dayCapKey?.({ state: sandbox.state, principal, params });
	const now = Date.now();
	const capUntil = capKey ? sandbox.rateLimiter.dayCapReached(capKey, area, now) : null;
	if (capUntil) {
		record.reopensAt = capUntil.getTime();
		return respond(429, {
			message: "You've reached your plan's daily limit of AI requests.",
			referenceUrl: 'https://developers.fliplet.com/API/core/ai.html#rate-limiting',
			nextValidRequestDate: capUntil.toISOString(),
		});
	}
	const limitedUntil = sandbox.rateLimiter.check(rateKey, area, now);
	if (limitedUntil) {
		record.reopensAt = limitedUntil.getTime();
		return respond(429, {
			message: 'Too many requests, please slow down.',
			referenceUrl: 'https://developers.fliplet.com/REST-API/rate-limiting.html',
			nextValidRequestDate: limitedUntil.toISOString(),
		});
	}
	if (capKey) sandbox.rateLimiter.countDay(capKey, area, now);

	const served =
		fault?.mode === 'ignore-offset'
			? withoutOffset(query, record.body)
			: { query, body: record.body };
	const serve = (at) =>
		withClockAt(sandbox.state, at, () =>
			route.handler({
				sandbox,
				state: sandbox.state,
				principal,
				params,
				query: served.query,
				body: served.body,
				headers: req.headers,
				method,
				path,
				onClientGone: (callback) => onClientGone(res, callback),
			}),
		);
	if (fault?.mode === 'land-late') {
		if (sandbox.interleaves.length) await runInterleaves(sandbox, method, path, record.body);
		holdToLandLate(sandbox, record, fault, async () => await serve(undefined));
		if (fault.drop) {
			record.status = 0;
			hungUpBySandbox = true;
			return req.socket.destroy();
		}
		return respond(
			fault.status ?? 504,
			fault.body ?? { message: 'Gateway Timeout' },
			fault.headers,
		);
	}
	const startedAt = fault?.mode === 'stamp-at-start' ? await startEarly(sandbox, fault) : undefined;
	if (sandbox.interleaves.length) await runInterleaves(sandbox, method, path, record.body);
	let result;
	try {
		result = await serve(startedAt);
	} catch (error) {
		if (error instanceof HttpError) return respond(error.status, error.body);
		throw error;
	}
	const status = result?.status ?? 200;
	const payload = result && 'body' in result ? result.body : undefined;

	if (fault?.mode === 'drop-after') {
		record.status = 0;
		hungUpBySandbox = true;
		return req.socket.destroy();
	}
	if (fault?.mode === 'status-after') {
		return respond(
			fault.status ?? 500,
			fault.body ?? { message: 'Injected fault after processing' },
			fault.headers,
		);
	}
	if (fault?.mode === 'cut-after') {
		record.status = status;
		hungUpBySandbox = true;
		return sendCut(res, status, payload, result?.headers, fault.cutAtBytes);
	}
	if (fault?.mode === 'drip-after') {
		record.status = status;
		return await sendDripping(res, status, payload, result?.headers, fault.dripBytes, fault.dripMs);
	}
	if (fault?.mode === 'stall-after') {
		record.status = status;
		const answer = encodeAnswer(payload, result?.headers);
		res.writeHead(status, answer.headers);
		res.flushHeaders();
		return;
	}
	if (fault?.mode === 'delay') {
		// The answer waits delayMs, or until the client gives up and closes the connection.
		await new Promise((resolve) => {
			const timer = setTimeout(resolve, fault.delayMs ?? 1000);
			res.once('close', () => {
				clearTimeout(timer);
				resolve(undefined);
			});
		});
	}
	if (res.destroyed) return;
	respond(status, payload, result?.headers);
}

module.exports = { createSandbox, isObject };
