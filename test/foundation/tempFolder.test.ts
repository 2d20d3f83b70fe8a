/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { removeLeftovers } = require('../setup/tempFolder');

describe("the test run's temporary folder", () => {
	const made: string[] = [];
	const folderOf = (pid: number) => {
		const folder = mkdtempSync(join(tmpdir(), `n8n-fliplet-test-${pid}-`));
		mkdirSync(join(folder, 'worker-1'));
		made.push(folder);
		return folder;
	};
	afterEach(() => {
		for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
	});

	it('removes the folder of a killed run and keeps those of runs still going', () => {
		const ended = spawnSync(process.execPath, ['-e', '']).pid;
		expect(ended).toBeGreaterThan(0);
		const killedRun = folderOf(ended!);
		const liveRun = folderOf(process.pid);

		removeLeftovers();

		expect(existsSync(killedRun)).toBe(false);
		expect(existsSync(liveRun)).toBe(true);
		expect(process.env.FLIPLET_TEST_TEMP && existsSync(process.env.FLIPLET_TEST_TEMP)).toBe(true);
	});
});
