'use strict';
// `npm run bench`: runs the Sync benchmark (TypeScript, through n8n's real engine) with ts-node.
// Sizes can be narrowed for a quick look: BENCH_SIZES=1000,10000 npm run bench

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// n8n-core keeps settings and an encryption key in its user folder: use a temporary one.
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
require('./sync.bench.ts');
