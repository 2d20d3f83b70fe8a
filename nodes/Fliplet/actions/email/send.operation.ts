import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { sendInBatches, type PreparedItem } from '../../helpers/batchSend';
import { postCommunicate } from '../../helpers/communicateSend';
import { batchFields, readBatchSettings } from './delivery.descriptions';
import { buildEmail, emailBody, sentEmailSummary, type PreparedEmail } from './message';

const properties: INodeProperties[] = [
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ann@example.com, bob@example.com',
		description:
			'Recipient addresses, separated by commas (or a list from an expression), each alone or after a display name with the address in angle brackets, as mail clients copy it. Every address is checked before anything is sent.',
	},
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		default: '',
		placeholder: 'e.g. Your weekly report',
	},
	{
		displayName: 'HTML Body',
		name: 'html',
		type: 'string',
		typeOptions: { rows: 5 },
		default: '',
		placeholder: 'e.g. <p>Hello {{ $json.name }}</p>',
		description: 'The message as HTML',
	},
	...batchFields('email'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Attachments (Binary Properties)',
				name: 'binaryProperties',
				type: 'string',
				default: '',
				placeholder: 'e.g. data, invoice',
				description:
					"Names of the item's binary properties to attach, separated by commas. Each keeps its file name and MIME type.",
			},
			{
				displayName: 'Attachments (Fields)',
				name: 'attachments',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				description: 'Attachments given as text or base64 content',
				options: [
					{
						displayName: 'Attachment',
						name: 'attachment',
						values: [
							{
								displayName: 'Content',
								name: 'content',
								type: 'string',
								default: '',
								description: 'The file content, as text or base64 (see Encoding)',
							},
							{
								displayName: 'Encoding',
								name: 'encoding',
								type: 'options',
								default: 'text',
								options: [
									{ name: 'Text', value: 'text' },
									{ name: 'Base64', value: 'base64' },
								],
							},
							{
								displayName: 'File Name',
								name: 'name',
								type: 'string',
								default: '',
								placeholder: 'e.g. report.csv',
								description: 'File name with its extension',
							},
							{
								displayName: 'MIME Type',
								name: 'mimeType',
								type: 'string',
								default: '',
								placeholder: 'e.g. text/csv',
							},
						],
					},
				],
			},
			{
				displayName: 'BCC',
				name: 'bcc',
				type: 'string',
				default: '',
				placeholder: 'e.g. audit@example.com',
				description: 'Blind-copy addresses, separated by commas',
			},
			{
				displayName: 'CC',
				name: 'cc',
				type: 'string',
				default: '',
				placeholder: 'e.g. team@example.com',
				description: 'Copy addresses, separated by commas',
			},
			{
				displayName: 'Headers',
				name: 'headers',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				description:
					'Extra message headers. Custom ones must start with "X-"; others are refused before sending.',
				options: [
					{
						displayName: 'Header',
						name: 'header',
						values: [
							{
								displayName: 'Name',
								name: 'name',
								type: 'string',
								default: '',
								placeholder: 'e.g. X-Campaign',
							},
							{ displayName: 'Value', name: 'value', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Queue When Offline',
				name: 'required',
				type: 'boolean',
				default: false,
				description:
					'Whether a Fliplet app running offline on a device should queue the email and send it once the device is back online (the API\'s "required" flag). Requests from n8n are sent online, so this is usually irrelevant here.',
			},
			{
				displayName: 'Sender Name',
				name: 'fromName',
				type: 'string',
				default: '',
				placeholder: 'e.g. Acme HR',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['email'], operation: ['send'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
	const { batched, batchSize } = readBatchSettings((name, fallback) =>
		this.getNodeParameter(name, 0, fallback),
	);
	return await (sendInBatches<PreparedEmail>).call(this, items, {
		noun: 'email',
		batchSize,
		prepare: async (itemIndex) => await buildEmail.call(this, itemIndex),
		send: async (group) => {
			const bodies: Array<PreparedItem<IDataObject>> = [];
			for (const { itemIndex, payload } of group) {
				bodies.push({ itemIndex, payload: await emailBody.call(this, itemIndex, payload) });
			}
			await postCommunicate.call(this, 'email', 'emails', batched, bodies);
			return bodies.map((entry) => sentEmailSummary(entry.payload));
		},
	});
}
