'use strict';
// Files benchmark: a 200 MB file uploaded to the media library from n8n's binary data (on disk)
// and downloaded back into it, through the Fliplet node in n8n's real engine, against the sandbox
// in its own process. Prints the peak memory of this process (RSS and heap, sampled every 5 ms)
// above the baseline, against the file's size. Not a test: figures only.
//   node --expose-gc bench/files.js          (BENCH_FILE_MB=50 for a quicker look)

require('./runTypeScript')
	.runTypeScript('files.bench.ts')
	.main()
	.then(
		() => process.exit(0),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
