'use strict';
// The README's pictures of the real editor. The browser tier makes them (each scenario that shows
// one saves it with `t.picture(name)`); they are kept in docs/images/, which npm does not pack,
// and the README points at them by absolute address, so they show on GitHub and on npm's page.
//
//   npm run test:browser                       checks that the run made every picture the README shows
//   npm run test:browser -- --update-pictures  also copies them into docs/images/

const fs = require('fs');
const path = require('path');

const REPO = path.resolve(__dirname, '..', '..');
const IMAGES = path.join(REPO, 'docs', 'images');

/** Where the README's pictures are served from: docs/images/ of main on GitHub. */
function pictureBase() {
	const { repository } = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
	const slug = String(repository.url ?? repository).match(/github\.com[/:](.+?)(?:\.git)?$/)[1];
	return `https://raw.githubusercontent.com/${slug}/main/docs/images/`;
}

/** The names (without .png) of the pictures README.md shows from docs/images/. */
function readmePictures() {
	const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
	const base = pictureBase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return [...readme.matchAll(new RegExp(`\\]\\(${base}([\\w-]+)\\.png\\)`, 'g'))].map((m) => m[1]);
}

/** The README's pictures missing from docs/images/ (the link check runs this). */
function missingPictures() {
	return readmePictures().filter((name) => !fs.existsSync(path.join(IMAGES, `${name}.png`)));
}

/**
 * After a browser run: every picture the README shows was made by this run (a scenario that no
 * longer reaches its picture fails here; `partial`: a run of some scenarios, which checks none),
 * and with `update` each one made replaces the kept copy.
 */
function checkPictures(picturesDir, { update, partial }) {
	const problems = [];
	for (const name of readmePictures()) {
		const made = path.join(picturesDir, `${name}.png`);
		if (!fs.existsSync(made)) {
			// A run of some scenarios only (partial) makes only their pictures.
			if (!partial)
				problems.push(`README.md shows docs/images/${name}.png, but no scenario made it`);
			continue;
		}
		if (update) {
			fs.mkdirSync(IMAGES, { recursive: true });
			fs.copyFileSync(made, path.join(IMAGES, `${name}.png`));
		}
	}
	return problems;
}

module.exports = { pictureBase, readmePictures, missingPictures, checkPictures };
