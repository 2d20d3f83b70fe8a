import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceOptions, resources } from './actions/resources';
import { router } from './actions/router';
import { credentialTest, listSearch, loadOptions, resourceMapping } from './methods';

export class Fliplet implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fliplet',
		name: 'fliplet',
		icon: { light: 'file:../../icons/fliplet.svg', dark: 'file:../../icons/fliplet.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
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
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceOptions,
				default: 'app',
			},
			...Object.values(resources).flatMap((resource) => resource.description),
		],
	};

	methods = { credentialTest, listSearch, loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions) {
		return await router.call(this);
	}
}
