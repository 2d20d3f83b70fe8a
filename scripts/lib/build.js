'use strict';
// Builds the package when dist/ is missing or older than its sources.

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const { REPO } = require('./n8nInstance');

const BUILT_NODE = path.join(REPO, 'dist', 'nodes', 'Fliplet', 'Fliplet.node.js');

function newestSource(dir) {
	let newest = 0;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
		else if (/\.(ts|json|svg)$/.test(entry.name))
			newest = Math.max(newest, fs.statSync(full).mtimeMs);
	}
	return newest;
}

function isBuildCurrent() {
	if (!fs.existsSync(BUILT_NODE)) return false;
	const sources = ['nodes', 'credentials', 'icons'].map((dir) =>
		newestSource(path.join(REPO, dir)),
	);
	return fs.statSync(BUILT_NODE).mtimeMs >= Math.max(...sources);
}

function ensureBuilt(log) {
	if (isBuildCurrent()) return;
	log('Building the package (npm run build)…');
	const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO, stdio: 'inherit' });
	if (result.status !== 0) throw new Error('"npm run build" failed: fix the build first.');
}

module.exports = { ensureBuilt };
