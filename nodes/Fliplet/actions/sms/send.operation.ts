import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { sendInBatches } from '../../helpers/batchSend';
import { postCommunicate } from '../../helpers/communicateSend';
import { batchFields, readBatchSettings } from '../email/delivery.descriptions';
import { buildSms, sentSmsSummary, twilioSecrets, type TwilioSecrets } from './message';

const properties: INodeProperties[] = [
	{
		displayName: 'Provider',
		name: 'provider',
		type: 'options',
		noDataExpression: true,
		default: 'default',
		options: [
			{
				name: 'Platform Default',
				value: 'default',
				description: "Fliplet's own sender: only the recipient and the text are sent",
			},
			{
				name: 'Twilio',
				value: 'twilio',
				description: 'Your Twilio account (from the "Twilio for Fliplet SMS API" credential)',
			},
		],
		description: 'Which SMS service delivers the message',
	},
	{
		displayName: 'From',
		name: 'from',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +15017122661',
		description: 'Your Twilio phone number in international format',
		displayOptions: { show: { provider: ['twilio'] } },
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +447700900123',
		description: 'The recipient in international (E.164) format: "+", country code, number',
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. Your code is 123456',
		description: 'The text of the SMS',
	},
	...batchFields('SMS'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['sms'], operation: ['send'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	const { batched, batchSize } = readBatchSettings((name, fallback) =>
		this.getNodeParameter(name, 0, fallback),
	);
	const provider = this.getNodeParameter('provider', 0, 'default') as string;
	const twilio: TwilioSecrets | undefined =
		provider === 'twilio' ? await twilioSecrets.call(this) : undefined;
	return await (sendInBatches<IDataObject>).call(this, items, {
		noun: 'SMS',
		batchSize,
		secrets: twilio ? [twilio.authToken] : [],
		prepare: async (itemIndex) => buildSms.call(this, itemIndex, twilio),
		send: async (group) => {
			await postCommunicate.call(this, 'sms', 'sms', batched, group);
			return group.map((entry) => sentSmsSummary(entry.payload));
		},
	});
}
