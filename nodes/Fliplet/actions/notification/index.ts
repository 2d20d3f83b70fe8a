import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { appLocator } from '../common.descriptions';
import type { OperationModule } from '../types';
import * as create from './create.operation';
import * as createBatch from './createBatch.operation';
import * as deleteOperation from './delete.operation';
import * as getMany from './getMany.operation';
import * as listSubscriptions from './listSubscriptions.operation';
import * as markAsRead from './markAsRead.operation';
import { contentFields, pushFields, scopeFields, statusFields } from './notification.descriptions';
import * as update from './update.operation';

export const operations: Record<string, OperationModule> = {
	create,
	createBatch,
	delete: deleteOperation,
	getMany,
	listSubscriptions,
	markAsRead,
	update,
};

/** The fields Create and Create in Batch share, listed once. */
const createFields = updateDisplayOptions(
	{ show: { resource: ['notification'], operation: ['create', 'createBatch'] } },
	[...statusFields('draft'), ...contentFields, ...scopeFields(false), ...pushFields],
);

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['notification'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create an in-app notification (draft, published now, or scheduled), optionally with a push notification, for everyone or matching users',
				action: 'Create a notification',
			},
			{
				name: 'Create in Batch',
				value: 'createBatch',
				description: 'Create one notification per input item, grouped into batch requests',
				action: 'Create notifications in batch',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a notification',
				action: 'Delete a notification',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: "List or count an app's notifications, with filters, sorting and deleted ones",
				action: 'Get many notifications',
			},
			{
				name: 'Get Push Subscriptions',
				value: 'listSubscriptions',
				description: "Get the app's push subscriptions (devices); needs a Studio user token",
				action: 'Get push subscriptions',
			},
			{
				name: 'Mark as Read',
				value: 'markAsRead',
				description: 'Record that a user has read notifications',
				action: 'Mark notifications as read',
			},
			{
				name: 'Update',
				value: 'update',
				description: "Change a notification's content, audience or push, or publish a draft",
				action: 'Update a notification',
			},
		],
		default: 'getMany',
	},
	appLocator({ displayOptions: { show: { resource: ['notification'] } } }),
	...getMany.description,
	...createFields,
	...create.description,
	...createBatch.description,
	...update.description,
	...deleteOperation.description,
	...markAsRead.description,
	...listSubscriptions.description,
];
