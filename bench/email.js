'use strict';
// Email batching benchmark through n8n's real engine (TypeScript source, via ts-node):
//   node bench/email.js
// EMAIL_BENCH_ITEMS (default 1000) and EMAIL_BENCH_WINDOW_MS (default 500, the scaled-down window
// of the 20-requests limit for the rate-limited runs) can be changed.

require('./runTypeScript').runTypeScript('email.bench.ts');
