'use strict';
// The browser for the browser tier: Debian's `chromium` package, installed with apt-get when it
// is missing and this user may (root); otherwise the error says what to do.

const fs = require('fs');
const os = require('os');
const { spawnSync } = require('child_process');

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function findChromium() {
	const configured = process.env.CHROMIUM_PATH;
	if (configured) {
		if (!fs.existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist.`);
		return configured;
	}
	return CANDIDATES.find((file) => fs.existsSync(file));
}

function run(command, args, log) {
	log(`$ ${command} ${args.join(' ')}`);
	const result = spawnSync(command, args, {
		stdio: 'inherit',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	});
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

/** The path of a Chromium binary, installing Debian's package first when needed and allowed. */
function ensureChromium(log) {
	const found = findChromium();
	if (found) return found;
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
	if (os.platform() !== 'linux' || !isRoot || !hasApt) {
		throw new Error(
			'The browser tier needs Chromium. Install it yourself (Debian/Ubuntu: ' +
				'"sudo apt-get install -y chromium"), or point CHROMIUM_PATH at an installed Chrome or ' +
				'Chromium binary, then run "npm run test:browser" again.',
		);
	}
	log('Chromium is missing: installing Debian\'s "chromium" package (once).');
	run('apt-get', ['update', '-qq'], log);
	run('apt-get', ['install', '-y', '-qq', 'chromium'], log);
	const installed = findChromium();
	if (!installed) throw new Error('apt-get installed "chromium" but no chromium binary was found.');
	return installed;
}

module.exports = { ensureChromium };
