'use strict';
// `npm run bench`: runs the Sync benchmark (TypeScript, through n8n's real engine) with ts-node.
// Sizes can be narrowed for a quick look: BENCH_SIZES=1000,10000 npm run bench

require('./runTypeScript').runTypeScript('sync.bench.ts');
