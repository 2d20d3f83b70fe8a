'use strict';
// A model of the network link between n8n and the platform, applied inside the benchmark's sandbox
// process (no proxy copying the bytes: timers only, so two cores measure the node, not the model).
//
// One link, shared by every connection: each direction carries its bytes at its bandwidth, split
// evenly among the transfers under way (as TCP flows share a bottleneck), and every request and
// answer travels half the round trip. A new connection can first cost round trips of handshakes
// (BENCH_HANDSHAKE_RTTS: 1 for TCP, 2 for TCP and TLS 1.3; none unless set). Not modelled: slow
// start, loss.

const { performance } = require('node:perf_hooks');

/** Bandwidth in bytes per millisecond, from megabits per second (undefined: unlimited). */
const bytesPerMs = (mbit) => (mbit > 0 ? (mbit * 1_000_000) / 8 / 1000 : undefined);

const delay = (ms) => new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : resolve()));

/**
 * One direction of the link: transfers share its bandwidth evenly (processor sharing). `carry`
 * resolves when the last of its bytes has crossed.
 */
class Pipe {
	constructor(rate) {
		this.rate = rate;
		/** @type {Array<{ left: number, done: () => void }>} */
		this.transfers = [];
		this.updated = 0;
		this.timer = undefined;
		this.bytes = 0;
	}

	carry(bytes) {
		this.bytes += bytes;
		if (!this.rate || bytes <= 0) return Promise.resolve();
		return new Promise((done) => {
			this.advance();
			this.transfers.push({ left: bytes, done });
			this.schedule();
		});
	}

	/** Takes off what each transfer sent since the last look. */
	advance() {
		const now = performance.now();
		if (this.transfers.length) {
			const each = ((now - this.updated) * this.rate) / this.transfers.length;
			for (const transfer of this.transfers) transfer.left -= each;
		}
		this.updated = now;
	}

	schedule() {
		clearTimeout(this.timer);
		if (!this.transfers.length) return;
		const least = Math.min(...this.transfers.map((transfer) => transfer.left));
		const wait = (Math.max(0, least) * this.transfers.length) / this.rate;
		this.timer = setTimeout(() => {
			this.advance();
			// Within a hundredth of a byte: timers fire whole milliseconds late, never early.
			const finished = this.transfers.filter((transfer) => transfer.left <= 0.01);
			this.transfers = this.transfers.filter((transfer) => transfer.left > 0.01);
			for (const transfer of finished) transfer.done();
			this.schedule();
		}, wait);
	}
}

/** The size of a request's line and headers as sent. */
function requestHeadBytes(req) {
	let bytes = req.method.length + req.url.length + 12;
	for (let i = 0; i < req.rawHeaders.length; i += 2)
		bytes += req.rawHeaders[i].length + req.rawHeaders[i + 1].length + 4;
	return bytes;
}

function responseHeadBytes(res) {
	let bytes = 17 + (res.statusMessage ?? '').length;
	for (const [name, value] of Object.entries(res.getHeaders()))
		bytes += name.length + String(value).length + 4;
	return bytes + 2;
}

const bodyBytes = (chunk, encoding) =>
	chunk === undefined || typeof chunk === 'function'
		? 0
		: Buffer.isBuffer(chunk)
			? chunk.length
			: Buffer.byteLength(String(chunk), typeof encoding === 'string' ? encoding : 'utf8');

/**
 * The link settings of the environment (BENCH_RTT_MS, BENCH_UP_MBIT, BENCH_DOWN_MBIT), or
 * undefined when none is set: then the benchmark runs on plain loopback.
 */
function linkSettings(env = process.env) {
	const read = (name) =>
		env[name] === undefined || env[name] === '' ? undefined : Number(env[name]);
	const settings = {
		rttMs: read('BENCH_RTT_MS'),
		upMbit: read('BENCH_UP_MBIT'),
		downMbit: read('BENCH_DOWN_MBIT'),
		handshakeRtts: read('BENCH_HANDSHAKE_RTTS'),
	};
	for (const [name, value] of Object.entries(settings)) {
		if (value !== undefined && !(value >= 0)) throw new Error(`${name}: expected a number ≥ 0`);
	}
	if (Object.values(settings).every((value) => value === undefined)) return undefined;
	return {
		rttMs: settings.rttMs ?? 0,
		upMbit: settings.upMbit ?? 0,
		downMbit: settings.downMbit ?? 0,
		handshakeRtts: settings.handshakeRtts ?? 0,
	};
}

/**
 * Puts the link between `server`'s clients and its request handler: a request is handled once its
 * bytes have crossed the uplink and half the round trip, and its answer leaves once its bytes have
 * crossed the downlink and the other half. Returns the link's counters, and in `timeline` when
 * each request arrived, was handled, answered and its answer delivered (ms, performance.now()).
 * @param {import('node:http').Server} server
 * @param {{ rttMs: number, upMbit: number, downMbit: number, handshakeRtts: number }} settings
 */
function installLink(server, settings) {
	const half = settings.rttMs / 2;
	const up = new Pipe(bytesPerMs(settings.upMbit));
	const down = new Pipe(bytesPerMs(settings.downMbit));
	const counters = { connections: 0, up, down, timeline: [] };
	const fresh = new WeakSet();
	server.on('connection', (socket) => {
		counters.connections++;
		fresh.add(socket);
	});
	const handlers = server.listeners('request');
	server.removeAllListeners('request');
	server.on('request', (req, res) => {
		const handshake = fresh.has(req.socket) ? settings.rttMs * settings.handshakeRtts : 0;
		fresh.delete(req.socket);
		const bytes = requestHeadBytes(req) + Number(req.headers['content-length'] ?? 0);
		const times = { path: req.url.split('?')[0], up: bytes, down: 0, arrived: performance.now() };
		counters.timeline.push(times);
		const end = res.end;
		res.end = function (chunk, encoding, callback) {
			times.answered = performance.now();
			times.down = responseHeadBytes(res) + bodyBytes(chunk, encoding);
			down
				.carry(times.down)
				.then(() => delay(half))
				.then(() => {
					times.delivered = performance.now();
					end.call(res, chunk, encoding, callback);
				});
			return res;
		};
		delay(handshake)
			.then(() => up.carry(bytes))
			.then(() => delay(half))
			.then(() => {
				times.handled = performance.now();
				for (const handler of handlers) handler.call(server, req, res);
			});
	});
	return counters;
}

module.exports = { installLink, linkSettings, Pipe };
