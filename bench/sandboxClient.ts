/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { fork, type ChildProcess } from 'child_process';
import { join } from 'path';

import { forgetRateWindows } from '../nodes/Fliplet/transport/pacing';
import { TOKENS } from '../test/harness';
import type { Arrival } from '../test/harness/refusals';
import { spreadsheetRow } from './rows';

/** Rows sent to the sandbox process in one message when seeding. */
const SEED_BATCH = 20_000;

export interface RequestStats {
	/** CPU time the sandbox process spent since the mark. */
	cpuMs: number;
	requests: number;
	bytes: number;
	queries: number;
	commits: number;
	puts: number;
	rateLimited: number;
	/** What crossed the modelled link (headers included), when one is set. */
	link?: { bytesUp: number; bytesDown: number; connections: number };
}

/** The modelled link between n8n and the sandbox (see link.js). */
export interface LinkSettings {
	rttMs: number;
	upMbit: number;
	downMbit: number;
	/** Round trips a new connection costs before its first request (0: not modelled). */
	handshakeRtts: number;
}

/** The sandbox child process and its small IPC protocol. */
export class SandboxProcess {
	private nextId = 0;
	private readonly pending = new Map<number, (message: any) => void>();

	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
		readonly link: LinkSettings | undefined,
		/** The sandbox's CDN-like host of public files. */
		readonly cdnUrl: string,
	) {
		child.on('message', (message: any) => {
			this.pending.get(message.id)?.(message);
			this.pending.delete(message.id);
		});
	}

	static async start(): Promise<SandboxProcess> {
		const child = fork(join(__dirname, 'sandboxProcess.js'), [], { stdio: 'inherit' });
		const ready = await new Promise<{
			ready: string;
			cdn: string;
			link?: LinkSettings;
		}>((resolve, reject) => {
			child.once('message', resolve);
			child.once('error', reject);
			child.once('exit', (code) => reject(new Error(`The sandbox process exited (${code})`)));
		});
		return new SandboxProcess(child, ready.ready, ready.link, ready.cdn);
	}

	private async call<T>(cmd: string, args?: object): Promise<T> {
		const id = ++this.nextId;
		return await new Promise<T>((resolve, reject) => {
			this.pending.set(id, (message) =>
				message.error ? reject(new Error(message.error)) : resolve(message.result),
			);
			this.child.send({ id, cmd, args });
		});
	}

	/**
	 * Starts a new measurement. The sandbox forgets its rate-limit counts, and so does this n8n
	 * process: its rate windows are shared by every run in it, as n8n's are.
	 */
	mark = () => {
		forgetRateWindows();
		return this.call<object>('mark');
	};
	stats = () => this.call<RequestStats>('stats');
	/**
	 * Appends the spreadsheet rows 0 to `count` - 1 (those the benchmark's Rows node emits) as
	 * entries, straight into the sandbox's store, a batch at a time.
	 */
	seed = async (dataSourceId: number, count: number) => {
		for (let from = 0; from < count; from += SEED_BATCH) {
			const rows = [];
			for (let n = from; n < Math.min(count, from + SEED_BATCH); n++) rows.push(spreadsheetRow(n));
			await this.call<{ entries: number }>('seed', { dataSourceId, rows });
		}
	};
	/** The requests since the mark to paths matching `path` (needs BENCH_HASH_BODIES=1 for bodies). */
	arrivals = (path: string) => this.call<Arrival[]>('arrivals', { path });
	content = (dataSourceId: number, key: string) =>
		this.call<{ entries: number; distinctKeys: number }>('content', { dataSourceId, key });
	mediaFile = (id: number) =>
		this.call<{ size: number; checksum: string; url: string } | undefined>('mediaFile', { id });

	stop(): void {
		this.child.disconnect();
	}
}

/** Creates a data source under the sandbox's app 11 (with the app token) and returns its id. */
export async function createDataSource(url: string, name: string): Promise<number> {
	const response = await fetch(`${url}/v1/data-sources?appId=11`, {
		method: 'POST',
		headers: { 'Auth-token': TOKENS.app, 'Content-Type': 'application/json' },
		body: JSON.stringify({ name }),
	});
	const body = (await response.json()) as { dataSource?: { id: number } };
	if (!body.dataSource) throw new Error(`Creating a data source answered ${response.status}`);
	return body.dataSource.id;
}
