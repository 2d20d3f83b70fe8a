'use strict';
// Runs the jest suite while busy loops hold the CPU cores, several times in a row, and checks that
// no run leaves anything in the temporary folder. Usage:
//   npm run test:load                      three runs of the whole suite, one busy loop per core
//   npm run test:load -- --runs 1 --loops 2 test/reliability
// Arguments other than --runs and --loops go to jest. The busy loops are always stopped, also on
// Ctrl-C, and stop by themselves if this script dies.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

const REPO = path.resolve(__dirname, '..');

function parseArgs(argv) {
	const options = { runs: 3, loops: os.availableParallelism?.() ?? os.cpus().length, jest: [] };
	for (let index = 0; index < argv.length; index++) {
		const name = argv[index];
		if (name === '--runs' || name === '--loops') {
			const value = Number(argv[++index]);
			if (!Number.isInteger(value) || value < (name === '--runs' ? 1 : 0)) {
				throw new Error(`${name} needs a whole number, got "${argv[index]}"`);
			}
			options[name.slice(2)] = value;
		} else options.jest.push(name);
	}
	return options;
}

/** One process spinning on a core; it exits when its parent is gone. */
function startBusyLoop() {
	const spin = `const parent = ${process.pid};
		for (;;) { for (let i = 0; i < 5e7; i++); if (process.ppid !== parent) process.exit(0); }`;
	return spawn(process.execPath, ['-e', spin], { stdio: 'ignore' });
}

function runJest(args, env) {
	return new Promise((resolve) => {
		const jest = spawn(process.execPath, [require.resolve('jest/bin/jest'), ...args], {
			cwd: REPO,
			env,
			stdio: 'inherit',
		});
		jest.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
	});
}

function listing(folder) {
	return new Set(fs.readdirSync(folder));
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	// Each run gets its own temporary folder, so what a run leaves behind is visible (and is not
	// mixed up with other programs' files); jest keeps its transform cache where it always does.
	const systemTemp = os.tmpdir();
	const jestArgs = [
		...(options.jest.some((arg) => arg.startsWith('--cacheDirectory'))
			? []
			: [
					`--cacheDirectory=${path.join(systemTemp, `jest_${(process.getuid?.() ?? 0).toString(36)}`)}`,
				]),
		...options.jest,
	];
	const loops = Array.from({ length: options.loops }, startBusyLoop);
	const stopLoops = () => loops.forEach((loop) => loop.exitCode === null && loop.kill('SIGKILL'));
	const onSignal = (signal) => {
		stopLoops();
		process.kill(process.pid, signal);
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	process.on('exit', stopLoops);

	const results = [];
	try {
		process.stdout.write(
			`${options.loops} busy loop(s) running (pids ${loops.map((loop) => loop.pid).join(', ')}); ` +
				`load average ${os
					.loadavg()
					.map((load) => load.toFixed(2))
					.join(' ')}\n`,
		);
		for (let run = 1; run <= options.runs; run++) {
			const temp = fs.mkdtempSync(path.join(systemTemp, 'n8n-fliplet-load-'));
			const before = listing(temp);
			const started = Date.now();
			const code = await runJest(jestArgs, { ...process.env, TMPDIR: temp, TMP: temp, TEMP: temp });
			const seconds = (Date.now() - started) / 1000;
			const left = [...listing(temp)].filter((name) => !before.has(name));
			fs.rmSync(temp, { recursive: true, force: true });
			results.push({ run, code, seconds, left });
			process.stdout.write(
				`run ${run}/${options.runs}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ` +
					`${seconds.toFixed(1)} s; temporary folder: ${left.length} new entr${left.length === 1 ? 'y' : 'ies'}` +
					`${left.length ? ` (${left.slice(0, 5).join(', ')}${left.length > 5 ? ', …' : ''})` : ''}\n`,
			);
		}
	} finally {
		stopLoops();
	}
	const failed = results.filter((result) => result.code !== 0 || result.left.length);
	process.stdout.write(
		`Under load: ${results.length - failed.length} of ${results.length} runs passed and left the temporary folder clean\n`,
	);
	if (failed.length) process.exitCode = 1;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
