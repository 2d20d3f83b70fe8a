import * as app from './app';
import * as appAnalytics from './appAnalytics';
import type { ResourceModule } from './types';

/** Every resource of the node by its `resource` value. */
export const resources: Record<string, ResourceModule> = { app, appAnalytics };

/** The resource picker's options, in the order shown. */
export const resourceOptions = [
	{ name: 'App', value: 'app' },
	{ name: 'App Analytic', value: 'appAnalytics' },
];
