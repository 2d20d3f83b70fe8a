'use strict';
// Mutation testing with StrykerJS (CONTRIBUTING.md "Mutation testing"): the Sync core and the
// transport, each against its own tests, one run after the other (each run uses every core, and
// two runs at once would share the work folder). Usage:
//   npm run test:mutation                                   both targets
//   npm run test:mutation -- transport                      one target (sync or transport)
//   npm run test:mutation -- sync --incremental             other arguments go to `stryker run`
//   npm run test:mutation -- transport --mutate nodes/Fliplet/transport/pacing.ts
// Each target's configuration is test/mutation/<target>.config.js; its report goes to
// reports/mutation/<target>.html. Prints how long each run took.

const path = require('path');
const { spawn } = require('child_process');

const REPO = path.resolve(__dirname, '..');
const TARGETS = ['sync', 'transport'];
// The package exports no bin path, so its folder is found through its package.json.
const STRYKER_BIN = path.join(
	path.dirname(require.resolve('@stryker-mutator/core/package.json')),
	'bin',
	'stryker.js',
);

function runStryker(target, args) {
	const config = path.join('test', 'mutation', `${target}.config.js`);
	return new Promise((resolve) => {
		const stryker = spawn(process.execPath, [STRYKER_BIN, 'run', config, ...args], {
			cwd: REPO,
			stdio: 'inherit',
		});
		stryker.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
	});
}

function minutes(ms) {
	return `${Math.round(ms / 60_000)} min`;
}

async function main() {
	const args = process.argv.slice(2);
	const chosen = TARGETS.includes(args[0]) ? [args.shift()] : TARGETS;
	const ran = [];
	for (const target of chosen) {
		const started = Date.now();
		const code = await runStryker(target, args);
		ran.push(
			`${target}: ${code === 0 ? 'done' : `failed (exit ${code})`} in ${minutes(Date.now() - started)}`,
		);
		if (code !== 0) break;
	}
	console.log(`\nMutation runs: ${ran.join('; ')}`);
	process.exitCode = ran.some((line) => line.includes('failed')) ? 1 : 0;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
