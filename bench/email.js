'use strict';
// Email batching benchmark through n8n's real engine (TypeScript source, via ts-node):
//   node bench/email.js
// EMAIL_BENCH_ITEMS (default 1000) and EMAIL_BENCH_WINDOW_MS (default 500, the scaled-down window
// of the 20-requests limit for the rate-limited runs) can be changed.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-fliplet-bench-'));
process.env.N8N_USER_FOLDER = folder;
process.env.N8N_ENCRYPTION_KEY = process.env.N8N_ENCRYPTION_KEY || 'fliplet-bench-only-key';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
process.on('exit', () => fs.rmSync(folder, { recursive: true, force: true }));

require('ts-node').register({
	transpileOnly: true,
	preferTsExts: true,
	project: path.join(__dirname, '..', 'tsconfig.check.json'),
	compilerOptions: { noEmit: false },
});
require('./email.bench.ts');
