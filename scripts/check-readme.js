#!/usr/bin/env node
'use strict';
// The README is for users: at most 250 lines, Installation its first section, and at least three
// pictures of the real editor (made by the browser tier, kept in docs/images/; the link check
// makes sure each one is there).
//
//   npm run check:readme

const fs = require('fs');
const path = require('path');

const { readmePictures } = require('./lib/readmePictures');

const MAX_LINES = 250;
const MIN_PICTURES = 3;

const text = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
const lines = text.trimEnd().split('\n').length;
const [first] = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1].trim());
const pictures = readmePictures().length;

const problems = [
	lines > MAX_LINES && `README.md has ${lines} lines; at most ${MAX_LINES}`,
	first !== 'Installation' && `README.md's first section is "${first}"; it must be Installation`,
	pictures < MIN_PICTURES &&
		`README.md shows ${pictures} pictures of the editor; at least ${MIN_PICTURES}`,
].filter(Boolean);
if (problems.length) {
	process.stderr.write(`README check failed:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
	process.exit(1);
}
process.stdout.write(
	`README: ${lines} lines, Installation first, ${pictures} pictures of the editor\n`,
);
