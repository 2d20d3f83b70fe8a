'use strict';
// Loads a TypeScript benchmark through n8n's real engine with ts-node, in a temporary n8n user
// folder (n8n-core keeps settings and an encryption key there) removed on exit.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** Requires `file` (relative to bench/) once ts-node and a throwaway n8n user folder are set up. */
function runTypeScript(file) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-fliplet-bench-'));
	process.env.N8N_USER_FOLDER = folder;
	process.env.N8N_ENCRYPTION_KEY = process.env.N8N_ENCRYPTION_KEY || 'fliplet-bench-only-key';
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
	process.on('exit', () => fs.rmSync(folder, { recursive: true, force: true }));

	require('ts-node').register({
		transpileOnly: true,
		// Fliplet.node.json sits beside Fliplet.node.ts: resolve the TypeScript source first.
		preferTsExts: true,
		project: path.join(__dirname, '..', 'tsconfig.check.json'),
		compilerOptions: { noEmit: false },
	});
	return require(path.join(__dirname, file));
}

/** Runs `file`'s exported `main()` (see runTypeScript), then exits: 1 on an error. */
function runMain(file) {
	runTypeScript(file)
		.main()
		.then(
			() => process.exit(process.exitCode ?? 0),
			(error) => {
				console.error(error);
				process.exit(1);
			},
		);
}

module.exports = { runTypeScript, runMain };
