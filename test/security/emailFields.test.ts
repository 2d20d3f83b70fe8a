// What becomes part of an email's head (subject, sender name, display names, attachment names and
// types) never holds a line break, and every check of an email or SMS field is linear: a 10 MB
// hostile value is answered in seconds, never frozen on.
import type { INodeParameters } from 'n8n-workflow';

import { isBase64Text } from '../../nodes/Fliplet/helpers/base64';
import {
	hasLineBreak,
	headerProblem,
	isEmailAddress,
	splitRecipients,
} from '../../nodes/Fliplet/helpers/email';
import { excerpt } from '../../nodes/Fliplet/helpers/excerpt';
import { toE164 } from '../../nodes/Fliplet/helpers/phone';
import { apiRequests, runNode, sandboxCredential, useSandbox, type TestItem } from '../harness';
import { expectLinear, timedAsync } from './timing';

const sandbox = useSandbox();

const v = '={{ $json.v }}';
const INJECTED = 'Hello\r\nBcc: intruder@example.com';
const PHOTO = Buffer.from('photo').toString('base64');

function email(overrides: Record<string, unknown> = {}, options: Record<string, unknown> = {}) {
	return {
		resource: 'email',
		operation: 'send',
		to: 'ann@example.com',
		subject: 'Hello',
		html: '<p>Hello</p>',
		options,
		...overrides,
	} as INodeParameters;
}

const attachment = (fields: Record<string, unknown>) => ({
	attachments: {
		attachment: [
			{ name: 'a.txt', mimeType: 'text/plain', content: 'hi', encoding: 'text', ...fields },
		],
	},
});

function send(parameters: INodeParameters, item: TestItem = { json: {} }) {
	return runNode({
		parameters,
		input: [item],
		credentials: sandboxCredential(sandbox()),
		continueOnFail: true,
	});
}

const sentEmails = () => apiRequests(sandbox(), /^\/v1\/communicate\/email/);

describe('a line break in the head of an email is refused before sending', () => {
	const toName = email({ to: '={{ `"${$json.v}" <ann@example.com>` }}' });
	const ccName = email({}, { cc: '={{ [{ email: "cc@example.com", name: $json.v }] }}' });

	it.each([
		['the subject', email({ subject: v }), /^Item 0: "Subject" contains a line break$/],
		['the sender name', email({}, { fromName: v }), /"Sender Name" contains a line break/],
		[
			'a display name typed in "To"',
			toName,
			/the display name of ann@example.com in "To" contains a line break/,
		],
		[
			'a display name given as an object in "CC"',
			ccName,
			/the display name of cc@example.com in "CC" contains a line break/,
		],
		[
			'an attachment file name',
			email({}, attachment({ name: v })),
			/the file name of an attachment contains a line break/,
		],
		[
			'an attachment MIME type',
			email({}, attachment({ mimeType: v })),
			/the MIME type of attachment "a.txt" contains a line break/,
		],
	])('in %s', async (_name, parameters, message) => {
		for (const value of [INJECTED, 'Hello\rBcc: intruder@example.com', 'Hello\nWorld']) {
			const result = await send(parameters, { json: { v: value } });
			expect(result.json).toEqual([
				expect.objectContaining({
					error: expect.stringMatching(message),
					description: expect.stringMatching(/nothing was sent. Remove the line breaks/),
				}),
			]);
		}
		expect(sentEmails()).toEqual([]);
	});

	it.each([
		['the subject', email({ subject: v }), /"Subject" contains a line break/],
		['the sender name', email({}, { fromName: v }), /"Sender Name" contains a line break/],
	])('in %s, also at its end', async (_name, parameters, message) => {
		const result = await send(parameters, { json: { v: 'Hello\n' } });
		expect(result.json).toEqual([
			expect.objectContaining({ error: expect.stringMatching(message) }),
		]);
		expect(sentEmails()).toEqual([]);
	});

	it.each([
		['"To"', toName],
		['"CC"', ccName],
	])(
		'but a display name in %s is trimmed, line breaks at its ends with it',
		async (_name, parameters) => {
			const result = await send(parameters, { json: { v: '\r\nAnn Lee\n' } });
			expect(result.json[0]).toMatchObject({ sent: true });
			const [sent] = sandbox().state.sent.emails;
			expect(sent.to).toContainEqual(expect.objectContaining({ name: 'Ann Lee' }));
		},
	);

	it.each([
		['file name', { fileName: 'photo\r\nBcc: x.png', mimeType: 'image/png' }, 'file name'],
		['MIME type', { fileName: 'photo.png', mimeType: 'image/png\r\nBcc: x' }, 'MIME type'],
	])('in a binary attachment %s', async (_name, binary, what) => {
		const result = await send(email({}, { binaryProperties: 'photo' }), {
			json: {},
			binary: { photo: { data: PHOTO, ...binary } },
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				error: `Item 0: the ${what} of binary property "photo" contains a line break`,
			}),
		]);
		expect(sentEmails()).toEqual([]);
	});

	it('in one item of a batch, while the others are sent', async () => {
		const result = await runNode({
			parameters: email({ subject: v, sendInBatches: true, batchSize: 10 }),
			input: [{ json: { v: 'First' } }, { json: { v: INJECTED } }, { json: { v: 'Third' } }],
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		expect(result.json.map((item) => item.error ?? item.subject)).toEqual([
			'First',
			'Item 1: "Subject" contains a line break',
			'Third',
		]);
		expect(sandbox().state.sent.emails.map((sent: { subject: string }) => sent.subject)).toEqual([
			'First',
			'Third',
		]);
	});

	it('keeps the line breaks of the HTML body and of an SMS, which are no header', async () => {
		const html = '<p>one</p>\r\n<p>two</p>\n';
		const emailResult = await send(email({ html }));
		expect(emailResult.error).toBeUndefined();
		expect(sandbox().state.sent.emails[0].html).toBe(html);
		const smsResult = await send({
			resource: 'sms',
			operation: 'send',
			to: '+447700900123',
			message: 'line one\r\nline two',
		});
		expect(smsResult.json[0]).toMatchObject({ sent: true });
		expect(sandbox().state.sent.sms[0].data.body).toBe('line one\r\nline two');
	});
});

describe('checking a field is linear', () => {
	const spacesThen = (tail: string) => (length: number) => ' '.repeat(length) + tail;

	// Linear work grows about 10 times from 1 MB to 10 MB; quadratic work about 100 times.
	it.each([
		['base64 content', isBase64Text, spacesThen('!')],
		['recipients', splitRecipients, spacesThen('!')],
		['recipients in quotes', splitRecipients, (n: number) => `"${'\\ '.repeat(n / 2)}`],
		['recipients in angle brackets', splitRecipients, (n: number) => '<'.repeat(n)],
		['an address', isEmailAddress, spacesThen('@example.com')],
		['a line break', hasLineBreak, spacesThen('!')],
		['a header value', (text: string) => headerProblem('X-A', text), spacesThen('\n')],
		['a header name', (text: string) => headerProblem(text, 'x'), spacesThen('!')],
		['a phone number', toE164, spacesThen('!')],
		['an excerpt for a message', excerpt, spacesThen('!')],
	])('%s', (_name, check, textOf) => {
		expectLinear(check as (text: string) => unknown, textOf);
	});
});

describe('10 MB in an email or SMS field through the engine', () => {
	const TEN_MB = 10 * 1024 * 1024;
	// 256 kB first: a quadratic check answers it in a minute rather than in hours, so the test
	// fails instead of freezing.
	const SIZES = [256 * 1024, TEN_MB];
	// Seconds, not milliseconds: a busy machine may be slow, but never by minutes.
	const BUDGET_MS = 20_000;

	const fields: Array<[string, INodeParameters, string]> = [
		['To', email({ to: v }), '!'],
		['CC', email({}, { cc: v }), '!'],
		['Subject', email({ subject: v }), '\n'],
		['Sender Name', email({}, { fromName: v }), '\r'],
		['a display name', email({ to: '={{ `"${$json.v}" <ann@example.com>` }}' }), 'A\nB'],
		['a header value', email({}, { headers: { header: [{ name: 'X-A', value: v }] } }), '\n'],
		['a header name', email({}, { headers: { header: [{ name: v, value: 'x' }] } }), '!'],
		['an attachment name', email({}, attachment({ name: v })), '\n'],
		['base64 attachment content', email({}, attachment({ content: v, encoding: 'base64' })), '!'],
		['Binary Properties', email({}, { binaryProperties: v }), '!'],
		['SMS To', { resource: 'sms', operation: 'send', to: v, message: 'Hi' }, '!'],
	];

	it.each(fields)('%s is refused within the budget', async (_name, parameters, tail) => {
		for (const size of SIZES) {
			const { result, ms } = await timedAsync(() =>
				send(parameters, { json: { v: ' '.repeat(size) + tail } }),
			);
			expect({ size, ms: ms < BUDGET_MS }).toEqual({ size, ms: true });
			expect(result.json).toEqual([
				expect.objectContaining({ error: expect.any(String), description: expect.any(String) }),
			]);
			// The message quotes at most an excerpt of what it refused.
			expect((result.json[0].error as string).length).toBeLessThan(400);
		}
		expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toEqual([]);
	});
});
