import * as ai from './ai';
import * as app from './app';
import * as appAnalytics from './appAnalytics';
import * as dataSource from './dataSource';
import * as dataSourceVersion from './dataSourceVersion';
import * as email from './email';
import * as entry from './entry';
import * as mediaFile from './mediaFile';
import * as mediaFolder from './mediaFolder';
import * as notification from './notification';
import * as organization from './organization';
import * as organizationToken from './organizationToken';
import * as sms from './sms';
import * as user from './user';
import type { ResourceModule } from './types';

/** Every resource of the node by its `resource` value. */
export const resources: Record<string, ResourceModule> = {
	ai,
	app,
	appAnalytics,
	dataSource,
	dataSourceVersion,
	email,
	entry,
	mediaFile,
	mediaFolder,
	notification,
	sms,
	organization,
	organizationToken,
	user,
};

/** The resource picker's options, in the order shown. */
export const resourceOptions = [
	{ name: 'AI', value: 'ai' },
	{ name: 'App', value: 'app' },
	{ name: 'App Analytics', value: 'appAnalytics' },
	{ name: 'Data Source', value: 'dataSource' },
	{ name: 'Data Source Version', value: 'dataSourceVersion' },
	{ name: 'Email', value: 'email' },
	{ name: 'Entry', value: 'entry' },
	{ name: 'Media File', value: 'mediaFile' },
	{ name: 'Media Folder', value: 'mediaFolder' },
	{ name: 'Notification', value: 'notification' },
	{ name: 'Organization', value: 'organization' },
	{ name: 'Organization Token', value: 'organizationToken' },
	{ name: 'SMS', value: 'sms' },
	{ name: 'User', value: 'user' },
];
