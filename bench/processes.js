'use strict';
// One, then several, n8n processes on one token against one sandbox (rate limits on), each
// running a Sync and email batches through n8n-core's engine: per area the refused share, the pace
// against the best the limit's windows allow and the longest run of refusals of one request, each
// beside its goal, with the credential's count of processes left at 1 and set to the number of
// processes (see processes.bench.ts):
//   node bench/processes.js
// BENCH_PROCESSES (1,2,4), BENCH_SETTINGS (default,processes), BENCH_DATA_REQUESTS (2400, all
// processes together), BENCH_EMAIL_REQUESTS (120, all together) and BENCH_REPEAT (1: runs of each
// scenario) change it; BENCH_POLICY (JSON) overrides the data sources' pacing constants in every
// process.

require('./runTypeScript').runMain('processes.bench.ts');
