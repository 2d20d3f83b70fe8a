/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { connect, createServer, type Socket } from 'net';
import type { AddressInfo } from 'net';

export interface PortForward {
	/** The forward's own address: another origin for the same server. */
	url: string;
	close: () => Promise<void>;
}

/**
 * A second address for a server on 127.0.0.1: each connection to it is piped to `url`'s port. A
 * credential whose base URL is this one has its own rate windows in the node (they are kept per
 * origin), as another n8n process on the same token has, while the server sees one token: two
 * "processes" in one jest process, through n8n-core, without touching the node's code.
 */
export async function forwardPort(url: string): Promise<PortForward> {
	const target = new URL(url);
	const sockets = new Set<Socket>();
	const server = createServer((client) => {
		const upstream = connect(Number(target.port), target.hostname);
		for (const socket of [client, upstream]) {
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
			socket.on('error', () => {
				client.destroy();
				upstream.destroy();
			});
		}
		client.pipe(upstream).pipe(client);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
