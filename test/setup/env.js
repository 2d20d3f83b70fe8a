// n8n-core keeps its settings and encryption key in the user folder: give each test worker its own
// temporary one so the tests never touch the developer's ~/.n8n.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

if (!process.env.N8N_USER_FOLDER_FOR_TESTS) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-fliplet-test-'));
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
