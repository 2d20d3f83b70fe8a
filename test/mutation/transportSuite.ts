// The test set of the transport's mutation run (transport.config.js): the foundation tests (every
// file of test/foundation/ but the sandbox's and the test run's own) and the tests of the
// transport's guarantees kept with their subject (security, faults on every write, pacing).
import { loadInOrder, testFilesOf } from './loadInOrder';

const NOT_THE_TRANSPORT = ['foundation/sandbox.test.ts', 'foundation/tempFolder.test.ts'];

loadInOrder(
	[
		...testFilesOf('foundation').filter((file) => !NOT_THE_TRANSPORT.includes(file)),
		'security/pathSegments.test.ts',
		'security/unsafeKeys.test.ts',
		'security/linearChecks.test.ts',
		'security/redirectTricks.test.ts',
		'security/urlEncoding.test.ts',
		'chatModel/aiPacing.test.ts',
		'reliability/writeFaults.test.ts',
		'reliability/rateLimitStorm.test.ts',
		'files/fileHosts.test.ts',
		'files/downloadGet.test.ts',
		'files/downloadScope.test.ts',
		'files/downloadStalls.test.ts',
		'files/fileNames.test.ts',
		'files/sizeLimitStreamed.test.ts',
		'reliability/processesOnOneToken.test.ts',
	],
	{
		first: [
			'foundation/transportHelpers.test.ts',
			'foundation/transportHelperEdges.test.ts',
			'foundation/credentialMessages.test.ts',
			'foundation/transportLoopEdges.test.ts',
			'foundation/transportChecksEdges.test.ts',
			'foundation/errorsEdges.test.ts',
			'foundation/pagingAndPacingEdges.test.ts',
			'foundation/attemptsEdges.test.ts',
			'security/pathSegments.test.ts',
			'security/unsafeKeys.test.ts',
			'foundation/jsonBody.test.ts',
			'foundation/multipart.test.ts',
			'foundation/pacingHold.test.ts',
			'foundation/allowance.test.ts',
			'foundation/refusalHold.test.ts',
			'foundation/errors.test.ts',
			'foundation/redirect.test.ts',
			'foundation/credential.test.ts',
			'foundation/pagination.test.ts',
		],
		last: [
			'security/linearChecks.test.ts',
			'foundation/faults.test.ts',
			'reliability/rateLimitStorm.test.ts',
			'foundation/sharedRateWindow.test.ts',
			'reliability/writeFaults.test.ts',
			'reliability/processesOnOneToken.test.ts',
			// Two minutes of it wait for the minute of the Free plan's AI limit.
			'chatModel/aiPacing.test.ts',
		],
	},
);
