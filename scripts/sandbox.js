#!/usr/bin/env node
'use strict';
// Runs the API sandbox as its own process on 127.0.0.1, rate limits on.
//
//   npm run sandbox                     port 5680 (public files on a free port, the CDN-like host)
//   FLIPLET_SANDBOX_PORT=5690 FLIPLET_SANDBOX_CDN_PORT=5691 npm run sandbox
//
// Control endpoints for other processes: GET /__sandbox/requests, GET /__sandbox/state,
// POST /__sandbox/reset, POST /__sandbox/faults, POST /__sandbox/rate-limits.

const { createSandbox, TOKENS } = require('../sandbox');

const DEFAULT_PORT = 5680;

async function startSandbox(port = Number(process.env.FLIPLET_SANDBOX_PORT || DEFAULT_PORT)) {
	const sandbox = createSandbox({ rateLimits: true });
	const cdnPort = Number(process.env.FLIPLET_SANDBOX_CDN_PORT || 0);
	await sandbox.start(port, '127.0.0.1', cdnPort);
	return sandbox;
}

module.exports = { startSandbox, DEFAULT_PORT };

if (require.main === module) {
	startSandbox()
		.then((sandbox) => {
			process.stdout.write(
				[
					`Fliplet API sandbox listening on ${sandbox.url} (rate limits on)`,
					`Public files (the CDN-like host): ${sandbox.cdnUrl}`,
					'Tokens:',
					...Object.entries(TOKENS).map(([kind, token]) => `  ${kind.padEnd(9)} ${token}`),
					`Requests received: ${sandbox.url}/__sandbox/requests`,
					'',
				].join('\n'),
			);
			const stop = () => sandbox.stop().then(() => process.exit(0));
			process.on('SIGINT', stop);
			process.on('SIGTERM', stop);
		})
		.catch((error) => {
			process.stderr.write(`Could not start the sandbox: ${error.message}\n`);
			process.exit(1);
		});
}
