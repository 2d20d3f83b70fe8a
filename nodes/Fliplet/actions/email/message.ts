import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { splitList } from '../../helpers/commaList';
import {
	hasLineBreak,
	headerProblem,
	isEmailAddress,
	recipientText,
	splitRecipients,
} from '../../helpers/email';
import { isBase64Text } from '../../helpers/base64';
import { excerpt } from '../../helpers/excerpt';
import { hasOwnBinary } from '../../helpers/inputBinary';
import { fallbackFileName } from '../../helpers/mimeExtension';
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

function isBlank(value: unknown): boolean {
	return String(value ?? '').trim() === '';
}

/**
 * Refuses a line break in a text that becomes part of the message's head (subject, sender name,
 * display names, attachment names and types): there it would start a header line of its own
 * (header injection), and none of these texts can hold a line break in an email anyway. The HTML
 * body and attachment contents are not part of the head: their line breaks are kept.
 */
function requireOneLine(
	context: IExecuteFunctions,
	itemIndex: number,
	what: string,
	text: string,
): void {
	if (!hasLineBreak(text)) return;
	refuseItem(
		context,
		itemIndex,
		`${what} contains a line break`,
		'A line break there would start a new header line of the email (e.g. an added Bcc), so nothing was sent. Remove the line breaks (e.g. with .replace(/[\\r\\n]+/g, " ") in an expression) and run it again.',
	);
}

function recipients(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	type: 'to' | 'cc' | 'bcc',
	label: string,
): IDataObject[] {
	const list = splitRecipients(value);
	const invalid = list.filter((recipient) => !isEmailAddress(recipient.email));
	if (invalid.length) {
		refuseItem(
			context,
			itemIndex,
			`invalid email address in "${label}": ${excerpt(invalid.map((r) => `"${recipientText(r)}"`).join(', '))}`,
			'Give addresses such as ann@example.com, each alone or after a display name with the address in angle brackets (as mail clients copy it), separated by commas (or a list). A display name holding a comma goes in double quotes.',
		);
	}
	for (const { email, name } of list) {
		if (name !== undefined) {
			requireOneLine(context, itemIndex, `the display name of ${email} in "${label}"`, name);
		}
	}
	// Fliplet's own code sends a display name as `name` beside the address.
	return list.map(({ email, name }) =>
		name === undefined ? { email, type } : { email, name, type },
	);
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

interface BinaryAttachment {
	property: string;
	type: string;
	name: string;
}

/** The item's binary attachments, checked to exist; their contents are read only when sent. */
function binaryAttachments(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyList: string | undefined,
): BinaryAttachment[] {
	return splitList(propertyList).map((property) => {
		if (!hasOwnBinary(context, itemIndex, property)) {
			refuseItem(
				context,
				itemIndex,
				`no binary property "${excerpt(property)}" for "Attachments (Binary Properties)"`,
				'Give the names of binary properties this item has (see its Binary tab), separated by commas, e.g. data, invoice.',
			);
		}
		const binary = context.helpers.assertBinaryData(itemIndex, property);
		const attachment = {
			property,
			type: binary.mimeType || 'application/octet-stream',
			name: binary.fileName || fallbackFileName(property, binary.mimeType, binary.fileExtension),
		};
		requireOneLine(
			context,
			itemIndex,
			`the file name of binary property "${excerpt(property)}"`,
			attachment.name,
		);
		requireOneLine(
			context,
			itemIndex,
			`the MIME type of binary property "${excerpt(property)}"`,
			attachment.type,
		);
		return attachment;
	});
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
			requireOneLine(context, itemIndex, 'the file name of an attachment', name);
			requireOneLine(
				context,
				itemIndex,
				`the MIME type of attachment "${excerpt(name)}"`,
				mimeType,
			);
			if (encoding === 'base64' && !isBase64Text(content)) {
				refuseItem(
					context,
					itemIndex,
					`the content of attachment "${excerpt(name)}" is not base64`,
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

/** One checked email: its body without attachments, and the attachments to add when it is sent. */
export interface PreparedEmail {
	email: IDataObject;
	binaries: BinaryAttachment[];
	inline: IDataObject[];
}

/** Every field of one item's email checked before anything is sent. */
export async function buildEmail(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<PreparedEmail> {
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
	if (isBlank(email.subject) && isBlank(email.html)) {
		refuseItem(
			this,
			itemIndex,
			'the email has no "Subject" and no "HTML Body", so it would arrive blank',
			'Give a subject or a body (or both). If they come from expressions, check the fields they read exist on this item.',
		);
	}
	requireOneLine(this, itemIndex, '"Subject"', email.subject as string);
	if (options.fromName) {
		requireOneLine(this, itemIndex, '"Sender Name"', options.fromName);
		email.from_name = options.fromName;
	}
	const headerMap = headers(this, itemIndex, options);
	if (headerMap) email.headers = headerMap;
	if (options.required) email.required = true;
	return {
		email,
		binaries: binaryAttachments(this, itemIndex, options.binaryProperties),
		inline: fieldAttachments(this, itemIndex, options),
	};
}

/**
 * The API's Send email body. Binary files are read here, just before their request, so only the
 * files of one request are held in memory, not those of every input item.
 */
export async function emailBody(
	this: IExecuteFunctions,
	itemIndex: number,
	prepared: PreparedEmail,
): Promise<IDataObject> {
	const attachments: IDataObject[] = [];
	for (const { property, type, name } of prepared.binaries) {
		const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, property);
		attachments.push({ type, content: buffer.toString('base64'), name, encoding: 'base64' });
	}
	attachments.push(...prepared.inline);
	return attachments.length ? { ...prepared.email, attachments } : prepared.email;
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
