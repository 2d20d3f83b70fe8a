// The test set of the Sync core's mutation run (sync.config.js): every Sync test file
// (test/sync/*.test.ts, a new one is picked up) and the Sync fault tests.
import { loadInOrder, testFilesOf } from './loadInOrder';

loadInOrder([...testFilesOf('sync'), 'reliability/syncFaults.test.ts'], {
	first: ['sync/helpers.test.ts', 'sync/sync.test.ts'],
	last: [
		'sync/syncPaging.test.ts',
		'sync/chunksAndPacing.test.ts',
		'sync/recovery.test.ts',
		'sync/targetedRead.test.ts',
		'reliability/syncFaults.test.ts',
	],
});
