import type {
	IExecuteFunctions,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceOptions, resources } from './actions/resources';
import { router } from './actions/router';
import { labelSubtitle, operationActions } from './helpers/subtitle';
import { credentialTest, listSearch, loadOptions, resourceMapping } from './methods';

const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resourceOptions,
		default: 'entry',
	},
	...Object.values(resources).flatMap((resource) => resource.description),
];

export class Fliplet implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fliplet',
		name: 'fliplet',
		icon: { light: 'file:../../icons/fliplet.svg', dark: 'file:../../icons/fliplet.dark.svg' },
		group: ['transform'],
		version: 1,
		// Shows the action the user picked in the node panel, e.g. "Get many entries".
		subtitle: labelSubtitle(operationActions(properties), ['resource', 'operation']),
		description:
			'Work with Fliplet apps: data sources and sync, email and SMS, notifications, audit logs, analytics, publishing and app-scoped AI',
		defaults: { name: 'Fliplet' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'flipletApi', required: true, testedBy: 'flipletApiTest' },
			{
				name: 'twilioForFlipletApi',
				required: false,
				displayOptions: { show: { resource: ['sms'], provider: ['twilio'] } },
			},
		],
		properties,
	};

	methods = { credentialTest, listSearch, loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions) {
		return await router.call(this);
	}
}
