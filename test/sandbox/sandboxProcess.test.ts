/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// `npm start` runs the sandbox as a process of its own: it must say so when the port is taken,
// not go on with whatever other process answers there.
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

const { startSandboxProcess } = require('../../scripts/lib/editorSession');

describe('the sandbox process of npm start', () => {
	let other: Server;

	beforeAll(async () => {
		// Another process's server on the port, answering like a sandbox would.
		other = createServer((_, res) => res.end('{}'));
		await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => {
		await new Promise((resolve) => other.close(resolve));
	});

	it('stops with a clear message when another process holds the port', async () => {
		const { port } = other.address() as AddressInfo;
		await expect(startSandboxProcess(port)).rejects.toThrow(
			new RegExp(`could not start on port ${port} .*FLIPLET_SANDBOX_PORT`),
		);
	});

	it('starts on a free port and answers there', async () => {
		const probe = createServer();
		await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
		const { port } = probe.address() as AddressInfo;
		await new Promise((resolve) => probe.close(resolve));

		const sandbox = await startSandboxProcess(port);
		try {
			expect(sandbox.url).toBe(`http://127.0.0.1:${port}`);
			expect((await fetch(`${sandbox.url}/__sandbox/state`)).ok).toBe(true);
		} finally {
			sandbox.child.kill('SIGTERM');
			await new Promise((resolve) => sandbox.child.once('exit', resolve));
		}
	});
});
