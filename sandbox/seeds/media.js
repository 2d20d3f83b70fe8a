'use strict';

/**
 * The media library's starting point: no files or folders, and each app's root media rules as the
 * platform presets them, "a preset rule granting public read and logged-in upload access"
 * (`Fliplet/fliplet-cli: docs/File-security.md`). Organizations whose files are stored encrypted
 * (none at first) are listed in `encryptedFileOrganizations`.
 */
function seedMedia(state) {
	state.mediaFolders = new Map();
	state.appMediaRules = new Map(
		state.apps.map((app) => [
			app.id,
			[
				{ type: ['read'], allow: 'all', enabled: true },
				{ type: ['create'], allow: 'loggedIn', enabled: true },
			],
		]),
	);
	state.encryptedFileOrganizations = new Set();
}

module.exports = { seedMedia };
