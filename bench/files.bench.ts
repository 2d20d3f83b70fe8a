/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { createHash } from 'crypto';
import { createReadStream, createWriteStream } from 'fs';
import { join } from 'path';

import { BinaryDataService, WorkflowExecute } from 'n8n-core';
import type {
	IBinaryData,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWorkflowBase,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { FLIPLET_NODE, nodeTypes, registerNodeType, TOKENS } from '../test/harness';
import { additionalData } from '../test/harness/engine';
import { SandboxProcess } from './sandboxClient';

// n8n-core resolves its services from its own copy of the DI container.
const { Container } = require(
	require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] }),
) as { Container: { get<T>(type: new (...args: never[]) => T): T } };

const MB = 1024 * 1024;
const FILE_MB = Number(process.env.BENCH_FILE_MB || 200);

/** Emits one item whose binary property is the given stored binary (its id: the bytes stay on disk). */
class StoredFile implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Stored File',
		name: 'storedFile',
		group: ['input'],
		version: 1,
		description: 'Emits a file already in binary data storage',
		defaults: { name: 'File' },
		inputs: [],
		outputs: ['main'],
		properties: [{ displayName: 'Binary', name: 'binary', type: 'json', default: '{}' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const binary = JSON.parse(this.getNodeParameter('binary', 0) as string) as IBinaryData;
		return [[{ json: {}, binary: { data: binary } }]];
	}
}
registerNodeType('bench.storedFile', () => new StoredFile());

const gc = (globalThis as { gc?: () => void }).gc;

interface Peak {
	rss: number;
	heap: number;
	baselineRss: number;
	baselineHeap: number;
	ms: number;
}

/** Runs `work` sampling this process's memory every 5 ms; the baseline is taken after a full GC. */
async function sampled<T>(work: () => Promise<T>): Promise<{ value: T; peak: Peak }> {
	gc?.();
	const base = process.memoryUsage();
	const peak = { rss: base.rss, heap: base.heapUsed };
	const sample = () => {
		const now = process.memoryUsage();
		peak.rss = Math.max(peak.rss, now.rss);
		peak.heap = Math.max(peak.heap, now.heapUsed);
	};
	const timer = setInterval(sample, 5);
	const started = Date.now();
	try {
		const value = await work();
		sample();
		return {
			value,
			peak: {
				...peak,
				baselineRss: base.rss,
				baselineHeap: base.heapUsed,
				ms: Date.now() - started,
			},
		};
	} finally {
		clearInterval(timer);
	}
}

async function runFliplet(
	sandbox: SandboxProcess,
	parameters: Record<string, unknown>,
	input?: IBinaryData,
) {
	const nodes: INode[] = [
		{
			id: 'file',
			name: 'File',
			type: 'bench.storedFile',
			typeVersion: 1,
			position: [0, 0],
			parameters: { binary: JSON.stringify(input ?? {}) },
		},
		{
			id: 'fliplet',
			name: 'Fliplet',
			type: FLIPLET_NODE,
			typeVersion: 1,
			position: [200, 0],
			parameters: parameters as INode['parameters'],
			credentials: { flipletApi: { id: 'bench', name: 'Bench' } },
		},
	];
	const connections = { File: { main: [[{ node: 'Fliplet', type: 'main' as const, index: 0 }]] } };
	const settings = { executionOrder: 'v1' as const };
	const workflowData = { id: 'bench', name: 'Files', active: false, nodes, connections, settings };
	const workflow = new Workflow({ ...workflowData, nodeTypes });
	const credentials = {
		flipletApi: {
			accessToken: TOKENS.org,
			region: 'custom',
			baseUrl: sandbox.url,
			fileHosts: sandbox.cdnUrl,
			timeout: 600,
		},
	};
	const run = await new WorkflowExecute(
		additionalData(credentials, 'bench', 'manual', workflowData as unknown as IWorkflowBase),
		'manual',
	).run({ workflow, startNode: workflow.getNode('File') ?? undefined });
	const result = run.data.resultData.runData.Fliplet?.[0];
	if (!result || result.error) throw result?.error ?? run.data.resultData.error;
	return result.data!.main[0]![0];
}

async function md5Of(stream: NodeJS.ReadableStream): Promise<string> {
	const hash = createHash('md5');
	for await (const chunk of stream) hash.update(chunk as Buffer);
	return hash.digest('hex');
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

function report(label: string, peak: Peak, size: number) {
	const rss = peak.rss - peak.baselineRss;
	const heap = peak.heap - peak.baselineHeap;
	console.log(
		`${label.padEnd(9)} ${(peak.ms / 1000).toFixed(1).padStart(5)} s  peak above baseline: RSS ${mb(rss).padStart(9)} (${(rss / size).toFixed(2)}× the file), heap ${mb(heap).padStart(9)} (${(heap / size).toFixed(2)}×)`,
	);
}

export async function main(): Promise<void> {
	const service = Container.get(BinaryDataService);
	await service.init();
	const size = FILE_MB * MB;
	const folder = process.env.N8N_USER_FOLDER!;

	// The input: a file written to disk, then stored in n8n's binary data (filesystem mode).
	const path = join(folder, 'input.bin');
	const out = createWriteStream(path);
	const chunk = Buffer.alloc(MB);
	for (let written = 0; written < size; written += MB) {
		chunk.fill(written / MB);
		if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
	}
	await new Promise<void>((resolve) => out.end(() => resolve()));
	const inputChecksum = await md5Of(createReadStream(path));
	const input = await service.store(
		{ type: 'execution', workflowId: 'bench', executionId: 'input' },
		createReadStream(path),
		{ data: '', mimeType: 'video/mp4', fileName: 'site-visit.mp4' } as IBinaryData,
	);

	const sandbox = await SandboxProcess.start();
	try {
		console.log(
			`Files benchmark: a ${mb(size)} file, n8n binary data on disk (filesystem mode), sandbox in its own process`,
		);
		const upload = await sampled(() =>
			runFliplet(
				sandbox,
				{
					resource: 'mediaFile',
					operation: 'upload',
					location: 'organization',
					organization: { __rl: true, mode: 'id', value: '1' },
					binaryPropertyName: 'data',
				},
				input,
			),
		);
		const fileId = Number(upload.value.json.id);
		const stored = await sandbox.mediaFile(fileId);
		if (stored?.size !== size || stored.checksum !== inputChecksum) {
			throw new Error(`The upload stored ${stored?.size} bytes, ${stored?.checksum}`);
		}
		report('Upload', upload.peak, size);

		const download = await sampled(() =>
			runFliplet(sandbox, {
				resource: 'mediaFile',
				operation: 'download',
				fileId: String(fileId),
				binaryPropertyName: 'data',
			}),
		);
		const binary = download.value.binary!.data;
		const downloaded = await md5Of(await service.getAsStream(binary.id!));
		if (binary.bytes !== size || downloaded !== inputChecksum) {
			throw new Error(`The download stored ${binary.bytes} bytes, ${downloaded}`);
		}
		report('Download', download.peak, size);
		console.log(
			`Both: the bytes arrived whole (MD5 ${inputChecksum}); goal: at most 1.5× the file's size above the baseline.`,
		);
	} finally {
		sandbox.stop();
	}
}
