'use strict';
// Load benchmark: 50,000 items through Entry Sync and Entry Get Many (JSON query) in one n8n
// execution, against the sandbox in its own process with the platform's rate limits; then a
// 10,000-row Sync in chunks of 25 through a 429 storm at the real limit (200 per 10 s, ~20 s).
//   node --expose-gc bench/load.js   (BENCH_LOAD_ROWS=10000 for a quicker look, BENCH_LOAD_STORM=0
//   to skip the storm). Prints time, requests, peak memory and the storm ratio, then exits.

require('./runTypeScript')
	.runTypeScript('load.bench.ts')
	.main()
	.then(
		() => process.exit(0),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
