'use strict';
// `node bench/upsert.js`: a few rows synced into big data sources (upsert.bench.ts), through n8n's
// real engine. BENCH_UPSERT_ENTRIES=10,100000 for a quick look; BENCH_RTT_MS=80 (with
// BENCH_UP_MBIT, BENCH_DOWN_MBIT) over a modelled link.
require('./runTypeScript').runTypeScript('upsert.bench.ts');
