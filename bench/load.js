'use strict';
// Load benchmark: 50,000 items through Entry Sync and Entry Get Many (JSON query) in one n8n
// execution, against the sandbox in its own process with the platform's rate limits; then a
// 10,000-row Sync in chunks of 25 through a 429 storm at the real limit (200 per 10 s, ~20 s).
//   node --expose-gc bench/load.js   (BENCH_LOAD_ROWS=10000 for a quicker look, BENCH_LOAD_STORM=0
//   to skip the storm). Prints time, requests, peak memory and the storm ratio, then exits.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-fliplet-load-'));
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
require('./load.bench.ts')
	.main()
	.then(
		() => process.exit(0),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
