// The test set of the mutation run (npm run test:mutation, see stryker.config.json): every Sync
// test, loaded by one module. Stryker re-runs the tests for every mutant; as one test file they
// load n8n's engine once per mutant instead of once per file, which makes the run several times
// faster. A new Sync test file belongs in this list.
import '../reliability/syncFaults.test';
import './helpers.test';
import './sync.test';
import './syncChecks.test';
import './syncEdges.test';
import './syncFailures.test';
import './syncPaging.test';
