'use strict';
// `npm run bench`: runs the Sync benchmark (TypeScript, through n8n's real engine) with ts-node.
// A size list selects other sizes: BENCH_SIZES=1000,10000 for a quick look, BENCH_SIZES=1000000 for a million rows.

require('./runTypeScript').runTypeScript('sync.bench.ts');
