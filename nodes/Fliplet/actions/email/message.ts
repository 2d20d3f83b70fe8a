import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { splitList } from '../../helpers/commaList';
import { headerProblem, invalidAddresses, splitAddresses } from '../../helpers/email';
import { refuseItem } from '../../helpers/refuseItem';

interface FieldAttachment {
	name?: string;
	mimeType?: string;
	content?: string;
	encoding?: string;
}

interface EmailOptions {
	cc?: unknown;
	bcc?: unknown;
	fromName?: string;
	headers?: { header?: Array<{ name?: string; value?: string }> };
	binaryProperties?: string;
	attachments?: { attachment?: FieldAttachment[] };
	required?: boolean;
}

function recipients(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	type: 'to' | 'cc' | 'bcc',
	label: string,
): IDataObject[] {
	const addresses = splitAddresses(value);
	const invalid = invalidAddresses(addresses);
	if (invalid.length) {
		refuseItem(
			context,
			itemIndex,
			`invalid email address in "${label}": ${invalid.map((a) => `"${a}"`).join(', ')}`,
			`Give plain addresses such as ann@example.com, separated by commas (or a list). Display names ("Ann <ann@example.com>") are not accepted.`,
		);
	}
	return addresses.map((email) => ({ email, type }));
}

function headers(
	context: IExecuteFunctions,
	itemIndex: number,
	options: EmailOptions,
): IDataObject | undefined {
	const entries = options.headers?.header ?? [];
	if (!entries.length) return undefined;
	const result: IDataObject = {};
	for (const { name = '', value = '' } of entries) {
		const problem = headerProblem(name.trim(), String(value));
		if (problem) {
			refuseItem(
				context,
				itemIndex,
				`header refused: ${problem}`,
				'Custom headers must start with "X-" (e.g. X-Campaign). Standard ones allowed: Reply-To, In-Reply-To, References, List-Unsubscribe, List-Unsubscribe-Post, List-Id, Precedence, Priority, Importance, Sensitivity, Auto-Submitted. Values cannot contain line breaks.',
			);
		}
		result[name.trim()] = String(value);
	}
	return result;
}

async function binaryAttachments(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyList: string | undefined,
): Promise<IDataObject[]> {
	const names = splitList(propertyList);
	const attachments: IDataObject[] = [];
	for (const property of names) {
		let fileName: string | undefined;
		let mimeType: string;
		try {
			const binary = context.helpers.assertBinaryData(itemIndex, property);
			fileName = binary.fileName;
			mimeType = binary.mimeType;
		} catch {
			refuseItem(
				context,
				itemIndex,
				`no binary property "${property}" for "Attachments (Binary Properties)"`,
				'Give the names of binary properties this item has (see its Binary tab), separated by commas, e.g. data, invoice.',
			);
		}
		const buffer = await context.helpers.getBinaryDataBuffer(itemIndex, property);
		attachments.push({
			type: mimeType || 'application/octet-stream',
			content: buffer.toString('base64'),
			name: fileName || property,
			encoding: 'base64',
		});
	}
	return attachments;
}

function fieldAttachments(
	context: IExecuteFunctions,
	itemIndex: number,
	options: EmailOptions,
): IDataObject[] {
	return (options.attachments?.attachment ?? []).map(
		({ name = '', mimeType = '', content = '', encoding = 'text' }) => {
			if (!name.trim()) {
				refuseItem(
					context,
					itemIndex,
					'an attachment in "Attachments (Fields)" has no file name',
					'Give each attachment a file name with its extension, e.g. report.csv.',
				);
			}
			if (encoding === 'base64' && !/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(content)) {
				refuseItem(
					context,
					itemIndex,
					`the content of attachment "${name}" is not base64`,
					'Give base64 text, or set its Encoding to Text.',
				);
			}
			const attachment: IDataObject = {
				type: mimeType || 'application/octet-stream',
				content,
				name: name.trim(),
			};
			if (encoding === 'base64') attachment.encoding = 'base64';
			return attachment;
		},
	);
}

/** The API's Send email body for one item; every field checked before anything is sent. */
export async function buildEmail(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const options = this.getNodeParameter('options', itemIndex, {}) as EmailOptions;
	const to = [
		...recipients(this, itemIndex, this.getNodeParameter('to', itemIndex), 'to', 'To'),
		...recipients(this, itemIndex, options.cc, 'cc', 'CC'),
		...recipients(this, itemIndex, options.bcc, 'bcc', 'BCC'),
	];
	if (!to.some((recipient) => recipient.type === 'to')) {
		refuseItem(this, itemIndex, '"To" is empty', 'Give at least one recipient address in "To".');
	}
	const email: IDataObject = {
		to,
		subject: this.getNodeParameter('subject', itemIndex, '') as string,
		html: this.getNodeParameter('html', itemIndex, '') as string,
	};
	if (options.fromName) email.from_name = options.fromName;
	const headerMap = headers(this, itemIndex, options);
	if (headerMap) email.headers = headerMap;
	const attachments = [
		...(await binaryAttachments(this, itemIndex, options.binaryProperties)),
		...fieldAttachments(this, itemIndex, options),
	];
	if (attachments.length) email.attachments = attachments;
	if (options.required) email.required = true;
	return email;
}

/** What the node outputs for a sent email: what went where, never the attachment contents. */
export function sentEmailSummary(email: IDataObject): IDataObject {
	const to = email.to as Array<{ email: string; type: string }>;
	const byType = (type: string) => to.filter((r) => r.type === type).map((r) => r.email);
	const summary: IDataObject = { sent: true, to: byType('to'), subject: email.subject as string };
	if (byType('cc').length) summary.cc = byType('cc');
	if (byType('bcc').length) summary.bcc = byType('bcc');
	const attachments = (email.attachments as IDataObject[] | undefined) ?? [];
	if (attachments.length) summary.attachments = attachments.map((a) => a.name as string);
	return summary;
}
