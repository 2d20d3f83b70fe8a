/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { NodeApiError } from 'n8n-workflow';

import { TwilioForFlipletApi } from '../../credentials/TwilioForFlipletApi.credentials';
import { redactError } from '../../nodes/Fliplet/helpers/batchSend';
import { stubNode } from '../harness/stubNode';
import {
	apiRequests,
	registerCredentialType,
	resolveCredentialExpression,
	runNode,
	sandboxCredential,
	useSandbox,
	type TestItem,
} from '../harness';

registerCredentialType(new TwilioForFlipletApi());

const sandbox = useSandbox();

const TWILIO = {
	accountSid: 'AC0123456789abcdef0123456789abcdef',
	authToken: 'twilio-secret-auth-token-42',
};

function withTwilio() {
	return { ...sandboxCredential(sandbox()), twilioForFlipletApi: TWILIO };
}

function smsParameters(overrides: Record<string, unknown> = {}) {
	return {
		resource: 'sms',
		operation: 'send',
		to: '={{ $json.phone }}',
		message: '=Hi {{ $json.name }}',
		...overrides,
	};
}

const people: TestItem[] = [
	{ json: { phone: '+44 7700 900123', name: 'Ann' } },
	{ json: { phone: '0033612345678', name: 'Bob' } },
	{ json: { phone: '+1 (415) 555-0100', name: 'Cy' } },
];

describe('SMS → Send with the platform default sender', () => {
	it('sends only data.to and data.body, one request per item, numbers in E.164', async () => {
		const result = await runNode({
			parameters: smsParameters(),
			input: people,
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /^\/v1\/communicate/);
		expect(requests.map((r) => [r.method, r.path])).toEqual(
			Array(3).fill(['POST', '/v1/communicate/sms']),
		);
		expect(requests.map((r) => r.body)).toEqual([
			{ data: { to: '+447700900123', body: 'Hi Ann' } },
			{ data: { to: '+33612345678', body: 'Hi Bob' } },
			{ data: { to: '+14155550100', body: 'Hi Cy' } },
		]);
		expect(sandbox().state.sent.sms).toHaveLength(3);
		expect(result.json[1]).toEqual({ sent: true, provider: 'default', to: '+33612345678' });
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	it('groups items into /sms/batch requests and pairs each output back', async () => {
		const result = await runNode({
			parameters: smsParameters({ sendInBatches: true, batchSize: 2 }),
			input: people,
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /^\/v1\/communicate/);
		expect(requests.map((r) => r.path)).toEqual([
			'/v1/communicate/sms/batch',
			'/v1/communicate/sms/batch',
		]);
		expect(requests[0].body).toEqual({
			sms: [
				{ data: { to: '+447700900123', body: 'Hi Ann' } },
				{ data: { to: '+33612345678', body: 'Hi Bob' } },
			],
		});
		expect(requests[1].body).toEqual({ sms: [{ data: { to: '+14155550100', body: 'Hi Cy' } }] });
		expect(result.items.map((item) => [item.pairedItem, item.json.to])).toEqual([
			[{ item: 0 }, '+447700900123'],
			[{ item: 1 }, '+33612345678'],
			[{ item: 2 }, '+14155550100'],
		]);
	});
});

describe('SMS → Send with Twilio', () => {
	it('sends provider "twilio" with the credential as options, and never outputs the token', async () => {
		const result = await runNode({
			parameters: smsParameters({ provider: 'twilio', from: '+15017122661' }),
			input: [people[0]],
			credentials: withTwilio(),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/communicate/);
		expect(request.body).toEqual({
			provider: 'twilio',
			data: { from: '+15017122661', to: '+447700900123', body: 'Hi Ann' },
			options: { twilio_sid: TWILIO.accountSid, twilio_auth_token: TWILIO.authToken },
		});
		expect(result.json).toEqual([
			{ sent: true, provider: 'twilio', to: '+447700900123', from: '+15017122661' },
		]);
		expect(JSON.stringify(result.items)).not.toContain(TWILIO.authToken);
	});

	it('refuses to send without the Twilio credential', async () => {
		const result = await runNode({
			parameters: smsParameters({ provider: 'twilio', from: '+15017122661' }),
			input: [people[0]],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toMatch(/needs a "Twilio for Fliplet SMS API" credential/);
		expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(0);
	});

	it('refuses a bad sender number before sending anything, and keeps the token out of the error', async () => {
		const result = await runNode({
			parameters: smsParameters({ provider: 'twilio', from: '12345' }),
			input: people,
			credentials: withTwilio(),
		});
		expect(result.error?.message).toBe(
			'Item 0: "From" is not a phone number in international (E.164) format: "12345"',
		);
		expect(JSON.stringify(result.error)).not.toContain(TWILIO.authToken);
		expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(0);
	});

	it('its credential test asks Twilio for the account with basic auth', () => {
		const { request } = new TwilioForFlipletApi().test;
		expect(request.baseURL).toBe('https://api.twilio.com');
		expect(resolveCredentialExpression(request.url!, TWILIO)).toBe(
			`/2010-04-01/Accounts/${TWILIO.accountSid}.json`,
		);
		expect(resolveCredentialExpression(request.auth!.username, TWILIO)).toBe(TWILIO.accountSid);
		expect(resolveCredentialExpression(request.auth!.password, TWILIO)).toBe(TWILIO.authToken);
	});
});

describe('SMS → validation and faults', () => {
	it.each([
		['a number without country code', '07700 900123'],
		['letters', '+44 CALL ME'],
		['an empty number', ''],
	])('refuses %s, naming the item and the field, sending nothing', async (_case, phone) => {
		const result = await runNode({
			parameters: smsParameters({ sendInBatches: true }),
			input: [people[0], { json: { phone, name: 'X' } }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe(
			`Item 1: "To" is not a phone number in international (E.164) format: "${phone}"`,
		);
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(result.error?.description).toMatch(/\+447700900123/);
		expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(0);
	});

	it.each([
		['status-after 500', { mode: 'status-after' as const, status: 500 }],
		['drop-after', { mode: 'drop-after' as const }],
	])(
		'%s on a Twilio send: one recorded SMS, not re-sent, token not in the error',
		async (_case, fault) => {
			sandbox().injectFault({ ...fault, path: '^/v1/communicate/sms$' });
			const result = await runNode({
				parameters: smsParameters({ provider: 'twilio', from: '+15017122661' }),
				input: [people[0]],
				credentials: withTwilio(),
			});
			expect(result.status).toBe('error');
			expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(1);
			expect(sandbox().state.sent.sms).toHaveLength(1);
			expect(result.error?.description).toMatch(
				/SMS of item 0 may already have been sent: it was NOT sent again/,
			);
			expect(JSON.stringify({ ...result.error, message: result.error?.message })).not.toContain(
				TWILIO.authToken,
			);
		},
	);

	it('redactError removes a secret from the message, description and API response of an error', () => {
		const error = new NodeApiError(
			stubNode(),
			{ body: { message: `bad token ${TWILIO.authToken}` } },
			{ message: `rejected ${TWILIO.authToken}`, description: `token ${TWILIO.authToken} refused` },
		);
		redactError(error, [TWILIO.authToken]);
		expect(error.message).toBe('rejected [redacted]');
		expect(error.description).toBe('token [redacted] refused');
		expect(JSON.stringify(error.errorResponse)).not.toContain(TWILIO.authToken);
	});
});
