'use strict';
// n8n's verification gate, run offline: the lint of @n8n/scan-community-package (its own
// `analyzePackage`, inline eslint-disable comments ignored) over the source tree and over the
// tarball `npm pack` makes, each with the file patterns the scanner uses for that leg. The
// scanner's provenance and download steps need the registry and a published version, so they are
// left to n8n; everything it lints is checked here.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const { ensureBuilt } = require('./lib/build');

const REPO = path.resolve(__dirname, '..');
const SCANNER = '@n8n/scan-community-package';
const log = (line) => process.stdout.write(`${line}\n`);

function run(command, args, cwd) {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
	if (result.status !== 0) {
		throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr || result.stdout}`);
	}
	return result.stdout;
}

/** `npm pack` into `folder`, unpacked to `folder/package`, exactly what npm would publish. */
function packInto(folder) {
	const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', folder], REPO));
	run('tar', ['-xzf', path.join(folder, packed.filename), '-C', folder], REPO);
	return { dir: path.join(folder, 'package'), files: packed.files.length };
}

async function main() {
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-fliplet-verify-'));
	// The scanner makes its own temporary folder when it loads: keep it inside ours.
	process.env.TMPDIR = work;
	try {
		const scanner = await import(require.resolve(`${SCANNER}/scanner/scanner.mjs`));
		const { version } = require(`${SCANNER}/package.json`);
		const pkg = require(path.join(REPO, 'package.json'));

		const source = await scanner.analyzePackage(REPO, scanner.SOURCE_FILE_PATTERNS);
		log(`source tree: ${source.passed ? 'passed' : source.message}`);

		ensureBuilt(log);
		const tarball = packInto(work);
		const packed = await scanner.analyzePackage(tarball.dir, ['**/*.js', 'package.json']);
		log(`npm pack (${tarball.files} files): ${packed.passed ? 'passed' : packed.message}`);

		const details = [source.details, packed.details].filter(Boolean).join('\n');
		if (details) log(details);
		const passed = source.passed && packed.passed;
		log(
			`${passed ? '✅' : '❌'} Package ${pkg.name}@${pkg.version} has ${passed ? 'passed' : 'failed'}` +
				` the lint of ${SCANNER}@${version} (source and tarball, inline disables ignored)`,
		);
		if (!passed) process.exitCode = 1;
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
