// Asset step of the build: icons and codex files next to the compiled code in dist/.
const { src, dest, parallel } = require('gulp');

function copyIcons() {
	return src('icons/**/*.svg', { encoding: false }).pipe(dest('dist/icons'));
}

function copyCodex() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

exports['build:assets'] = parallel(copyIcons, copyCodex);
