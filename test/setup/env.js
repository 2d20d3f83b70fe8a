// n8n-core keeps its settings and encryption key in the user folder: give each test worker its own,
// inside the run's temporary folder (test/setup/tempFolder.js removes it after the run), so the
// tests never touch the developer's ~/.n8n and leave nothing behind.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

if (!process.env.N8N_USER_FOLDER_FOR_TESTS) {
	const runFolder = process.env.FLIPLET_TEST_TEMP ?? path.join(os.tmpdir(), 'n8n-fliplet-test');
	const folder = path.join(runFolder, `worker-${process.env.JEST_WORKER_ID ?? '1'}`);
	fs.mkdirSync(folder, { recursive: true });
	process.env.N8N_USER_FOLDER_FOR_TESTS = folder;
	process.env.N8N_USER_FOLDER = folder;
}
process.env.N8N_ENCRYPTION_KEY = process.env.N8N_ENCRYPTION_KEY || 'fliplet-node-tests-only-key';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// n8n's logger writes to a file in that folder, not to the test console (the secret scan in the
// harness still sees every message: it wraps the logger itself).
process.env.N8N_LOG_OUTPUT = process.env.N8N_LOG_OUTPUT || 'file';
process.env.N8N_LOG_FILE_LOCATION =
	process.env.N8N_LOG_FILE_LOCATION ||
	require('node:path').join(process.env.N8N_USER_FOLDER, 'n8n.log');
