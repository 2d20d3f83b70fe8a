#!/usr/bin/env node
'use strict';
// Runs `npm <args>` and turns npm's request log into a short progress report: how many packages
// npm has looked up (resolving), then how many of them it has downloaded, and the latest one, one
// line every few seconds. Exits with npm's exit code; npm's errors pass through.
//
//   node scripts/lib/npmProgress.js install n8n@2.40.7 --no-save

const { spawn } = require('child_process');

const REPORT_EVERY_MS = 5_000;
/** No request for this long after downloads began: npm is unpacking and linking. */
const QUIET_MS = 8_000;

function packageName(url) {
	const [, name] = /registry[^/]*\/(@[^/]+\/[^/]+|[^/@][^/]*)/.exec(url.replace('%2f', '/')) ?? [];
	return name ?? url;
}

function npmWithProgress(
	args,
	{ label = 'npm', write = (line) => process.stdout.write(line) } = {},
) {
	const started = Date.now();
	const lookedUp = new Set();
	const downloaded = new Set();
	let latest = '';
	let lastRequestAt = Date.now();
	const child = spawn(
		'npm',
		[...args.filter((a) => !a.startsWith('--loglevel')), '--loglevel=http'],
		{
			stdio: ['ignore', 'inherit', 'pipe'],
		},
	);
	let pending = '';
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (chunk) => {
		const lines = (pending + chunk).split('\n');
		pending = lines.pop();
		for (const line of lines) take(line);
	});
	function take(line) {
		const request = /^npm http (?:fetch GET \d+|cache \S+@)\s*(https?:\/\/\S+)/.exec(line);
		if (request) {
			const url = request[1];
			const name = packageName(url);
			if (url.endsWith('.tgz')) downloaded.add(url);
			else lookedUp.add(name);
			latest = name;
			lastRequestAt = Date.now();
		} else if (/^npm (error|ERR)/i.test(line)) {
			write(`${line}\n`);
		}
	}
	const report = () => {
		const elapsed = Math.round((Date.now() - started) / 1000);
		const quiet = Date.now() - lastRequestAt > QUIET_MS;
		let phase = lookedUp.size
			? `resolving: ${lookedUp.size} packages looked up`
			: `npm ${args[0]} running`;
		if (downloaded.size) {
			phase = quiet
				? `unpacking ${downloaded.size} downloaded packages`
				: `downloading: ${downloaded.size} packages (${lookedUp.size} names resolved)`;
		}
		const last = latest && !quiet ? ` (latest: ${latest})` : '';
		write(`[${label}] ${phase}, ${elapsed} s${last}\n`);
	};
	const timer = setInterval(report, REPORT_EVERY_MS);
	return new Promise((resolve) => {
		child.on('close', (code) => {
			clearInterval(timer);
			if (pending) take(pending);
			if (lookedUp.size || downloaded.size) report();
			resolve(code ?? 1);
		});
	});
}

module.exports = { npmWithProgress, packageName };

if (require.main === module) {
	npmWithProgress(process.argv.slice(2), { label: process.env.NPM_PROGRESS_LABEL || 'npm' }).then(
		(code) => process.exit(code),
	);
}
