#!/usr/bin/env node
'use strict';
// What `npm publish` would send: `npm pack --dry-run`'s manifest. Only dist/, README.md,
// LICENSE.md, CHANGELOG.md and package.json may go out, with every file the package.json "n8n"
// section lists; nothing of the tests, sandbox or benchmarks. Prints the manifest by folder, the
// file count and the packed size, and fails above the size budget.
//
//   npm run build && npm run check:pack

const path = require('path');
const { spawnSync } = require('child_process');

const REPO = path.resolve(__dirname, '..');
// The packed size on 2026-11-27 (321,700 bytes) plus 20%: a package that grows past it should
// say why, and raise this with the reason. Raised from 306,800 (2026-11-26's 255,637 plus 20%) for
// files both ways (downloads, streamed multipart uploads, the Media File and Media Folder
// resources), Sync's targeted read and its recovery of lost commit answers, the pacing shared by
// processes on one token, the Instant Trigger's delivery record and the Chat Model's structured
// output per model (about 66 kB of compiled code and maps, and a longer CHANGELOG and README).
const BUDGET_BYTES = 386_000;
const TOP_LEVEL = ['package.json', 'README.md', 'LICENSE.md', 'CHANGELOG.md'];
const DEVELOPMENT_ONLY =
	/(^|\/)(test|tests|__tests__|sandbox|bench|examples|scripts)\/|\.(test|spec|bench)\./;

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

function packManifest() {
	const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: REPO,
		encoding: 'utf8',
	});
	if (result.status !== 0) throw new Error(`npm pack --dry-run failed:\n${result.stderr}`);
	const [manifest] = JSON.parse(result.stdout);
	return manifest;
}

function problemsOf(manifest) {
	const pkg = require(path.join(REPO, 'package.json'));
	const paths = new Set(manifest.files.map((file) => file.path));
	const problems = [];
	for (const file of paths) {
		if (!TOP_LEVEL.includes(file) && !file.startsWith('dist/'))
			problems.push(`not allowed: ${file}`);
		else if (DEVELOPMENT_ONLY.test(file)) problems.push(`development file: ${file}`);
	}
	const required = [...TOP_LEVEL, ...pkg.n8n.nodes, ...pkg.n8n.credentials];
	for (const file of required) if (!paths.has(file)) problems.push(`missing: ${file}`);
	if (manifest.size > BUDGET_BYTES) {
		problems.push(`packed size ${kB(manifest.size)} is over the budget of ${kB(BUDGET_BYTES)}`);
	}
	return problems;
}

function printManifest(manifest) {
	const groups = new Map();
	for (const file of manifest.files) {
		const parts = file.path.split('/');
		const key = parts.length > 2 ? `${parts.slice(0, 2).join('/')}/` : file.path;
		const group = groups.get(key) ?? { files: 0, bytes: 0 };
		group.files++;
		group.bytes += file.size;
		groups.set(key, group);
	}
	process.stdout.write(`${manifest.id}: npm pack --dry-run\n`);
	for (const [key, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
		const count = group.files > 1 ? `${group.files} files` : '';
		process.stdout.write(
			`  ${key.padEnd(20)} ${count.padStart(10)} ${kB(group.bytes).padStart(10)}\n`,
		);
	}
	process.stdout.write(
		`${manifest.entryCount} files, packed ${kB(manifest.size)} (budget ${kB(BUDGET_BYTES)}), ` +
			`unpacked ${kB(manifest.unpackedSize)}\n`,
	);
}

try {
	const manifest = packManifest();
	printManifest(manifest);
	const problems = problemsOf(manifest);
	if (problems.length) {
		process.stderr.write(`Pack check failed:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
		process.exit(1);
	}
} catch (error) {
	process.stderr.write(`${error.message}\n`);
	process.exit(1);
}
