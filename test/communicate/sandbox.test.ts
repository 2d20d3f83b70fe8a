import { callSandbox, useSandbox } from '../harness';

const sandbox = useSandbox();
const call = (method: string, path: string, body?: unknown, token?: string) =>
	callSandbox(sandbox(), method, path, body, token);

const email = (address: string) => ({
	to: [{ email: address, type: 'to' }],
	subject: 'S',
	html: '<p>x</p>',
});

describe('Sandbox communicate endpoints', () => {
	it('records a sent email and answers {success: true}', async () => {
		expect(await call('POST', '/v1/communicate/email', email('a@example.com'))).toEqual({
			status: 200,
			body: { success: true },
		});
		expect(sandbox().state.sent.emails).toEqual([email('a@example.com')]);
	});

	it('refuses a whole batch with one bad email and records none of it', async () => {
		const result = await call('POST', '/v1/communicate/email/batch', {
			emails: [email('a@example.com'), email('nope')],
		});
		expect(result.status).toBe(400);
		expect(result.body.message).toMatch(/emails\[1\]: to\[0\] has no valid email address/);
		expect(sandbox().state.sent.emails).toHaveLength(0);
	});

	it('needs the Twilio options and a sender for the twilio provider, and knows no other provider', async () => {
		const data = { to: '+447700900123', body: 'hi' };
		expect((await call('POST', '/v1/communicate/sms', { provider: 'twilio', data })).status).toBe(
			400,
		);
		expect((await call('POST', '/v1/communicate/sms', { provider: 'nexmo', data })).status).toBe(
			400,
		);
		const ok = await call('POST', '/v1/communicate/sms/batch', {
			sms: [
				{
					provider: 'twilio',
					data: { ...data, from: '+15017122661' },
					options: { twilio_sid: 'AC1', twilio_auth_token: 't0k3n' },
				},
			],
		});
		expect(ok).toEqual({ status: 200, body: { success: true, count: 1 } });
		expect(sandbox().state.sent.sms).toHaveLength(1);
	});

	it('limits the four endpoints together in the "communicate" area (20 per 30 s by default)', async () => {
		expect(sandbox().rateLimiter.limits.communicate).toEqual({ limit: 20, windowMs: 30_000 });
		sandbox().rateLimiter.enabled = true;
		try {
			for (let n = 0; n < 10; n++)
				expect(
					(await call('POST', '/v1/communicate/email', email(`u${n}@example.com`))).status,
				).toBe(200);
			for (let n = 0; n < 10; n++)
				expect(
					(await call('POST', '/v1/communicate/sms', { data: { to: '+447700900123', body: 'x' } }))
						.status,
				).toBe(200);
			const limited = await call('POST', '/v1/communicate/email/batch', {
				emails: [email('late@example.com')],
			});
			expect(limited.status).toBe(429);
			expect(limited.body).toEqual(
				expect.objectContaining({ nextValidRequestDate: expect.any(String) }),
			);
			expect(sandbox().state.sent.emails).toHaveLength(10);
		} finally {
			sandbox().rateLimiter.enabled = false;
		}
	});
});
