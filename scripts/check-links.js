#!/usr/bin/env node
'use strict';
// Every relative link in README.md, CONTRIBUTING.md and docs/*.md must resolve: the file (or
// folder) exists, and an #anchor names a heading of its target as GitHub renders it. Links to
// other sites are not fetched (CI has no network beyond the package registries), but the README's
// pictures, absolute addresses of docs/images/ on GitHub, must be files there.
//
//   npm run check:links

const fs = require('fs');
const path = require('path');

const { missingPictures, readmePictures } = require('./lib/readmePictures');

const REPO = path.resolve(__dirname, '..');

function documents() {
	const docs = fs.existsSync(path.join(REPO, 'docs'))
		? fs
				.readdirSync(path.join(REPO, 'docs'))
				.filter((name) => name.endsWith('.md'))
				.map((name) => `docs/${name}`)
		: [];
	return ['README.md', 'CONTRIBUTING.md', ...docs.sort()];
}

/** The text without fenced code blocks and inline code, where brackets are not links. */
function prose(text) {
	return text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats -1, -2. */
function anchorsOf(text) {
	const anchors = new Set();
	const seen = new Map();
	for (const [, heading] of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
		const base = heading
			.replace(/<[^>]+>/g, '')
			.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count ? `${base}-${count}` : base);
	}
	for (const [, id] of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(id);
	return anchors;
}

function linksOf(text) {
	const body = prose(text);
	const inline = [...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
	const references = [...body.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]);
	return [...inline, ...references];
}

function check() {
	const problems = [];
	let count = 0;
	for (const document of documents()) {
		const file = path.join(REPO, document);
		const text = fs.readFileSync(file, 'utf8');
		for (const link of linksOf(text)) {
			if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
			count++;
			const [target, anchor] = link.split('#');
			const resolved = target ? path.resolve(path.dirname(file), decodeURI(target)) : file;
			if (!resolved.startsWith(REPO) || !fs.existsSync(resolved)) {
				problems.push(`${document}: ${link}: no such file`);
				continue;
			}
			if (anchor === undefined) continue;
			if (!resolved.endsWith('.md') || fs.statSync(resolved).isDirectory()) {
				problems.push(`${document}: ${link}: an anchor into a file that is not Markdown`);
			} else if (!anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
				problems.push(`${document}: ${link}: no heading "#${anchor}" there`);
			}
		}
	}
	// The README's pictures are absolute addresses (for npm's page) of files kept in docs/images/.
	for (const name of missingPictures())
		problems.push(`README.md: docs/images/${name}.png: no such file`);
	return { count, problems, documents: documents().length, pictures: readmePictures().length };
}

const { count, problems, documents: files, pictures } = check();
if (problems.length) {
	process.stderr.write(`Link check failed:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
	process.exit(1);
}
process.stdout.write(
	`Links: ${count} relative links in ${files} files and ${pictures} README pictures, all resolve\n`,
);
