// One temporary folder for the whole jest run, made before the workers start (they inherit its
// path) and removed after the last test file: n8n-core's user folders and logs live in it.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const VARIABLE = 'FLIPLET_TEST_TEMP';

async function setup() {
	if (process.env[VARIABLE]) return;
	process.env[VARIABLE] = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-fliplet-test-'));
	process.env.FLIPLET_TEST_TEMP_OWNED = 'true';
}

async function teardown() {
	if (process.env.FLIPLET_TEST_TEMP_OWNED !== 'true') return;
	fs.rmSync(process.env[VARIABLE], { recursive: true, force: true });
}

module.exports = { setup, teardown, VARIABLE };
