import type { INodeParameters } from 'n8n-workflow';

/** App → Publish of the sandbox's app 11, a forced release: a write that must never repeat. */
export const publishApp11: INodeParameters = {
	resource: 'app',
	operation: 'publish',
	app: { __rl: true, mode: 'id', value: '11' },
	releaseType: 'forced',
	changelog: 'Hotfix',
};
