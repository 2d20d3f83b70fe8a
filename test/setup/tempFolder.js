// One temporary folder for the whole jest run, made before the workers start (they inherit its
// path) and removed after the last test file: n8n-core's user folders and logs live in it.
// A run that is killed (Ctrl+C, or the mutation run stopping a test runner that timed out) never
// reaches its teardown: the folder's name carries the run's process id, and the next run removes
// the folders of runs whose process is gone.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const VARIABLE = 'FLIPLET_TEST_TEMP';
const PREFIX = 'n8n-fliplet-test-';

function isRunning(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: the process exists but belongs to another user.
		return error.code === 'EPERM';
	}
}

/** Removes the folders left by killed runs (`n8n-fliplet-test-<pid>-…` whose process is gone). */
function removeLeftovers() {
	for (const name of fs.readdirSync(os.tmpdir())) {
		const match = new RegExp(`^${PREFIX}(\\d+)-`).exec(name);
		if (match && !isRunning(Number(match[1])))
			fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
	}
}

async function setup() {
	if (process.env[VARIABLE]) return;
	removeLeftovers();
	process.env[VARIABLE] = fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
	process.env.FLIPLET_TEST_TEMP_OWNED = 'true';
}

async function teardown() {
	if (process.env.FLIPLET_TEST_TEMP_OWNED !== 'true') return;
	fs.rmSync(process.env[VARIABLE], { recursive: true, force: true });
}

module.exports = { setup, teardown, removeLeftovers, VARIABLE };
