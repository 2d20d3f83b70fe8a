import { FlipletApi } from '../../credentials/FlipletApi.credentials';
import {
	DEFAULT_TIMEOUT_SECONDS,
	timeoutFor,
	timeoutKind,
} from '../../nodes/Fliplet/transport/timeouts';
import { apiRequests, publishApp11, runNode, sandboxCredential, useSandbox } from '../harness';
import { PUBLISHED_APP } from '../ai/fixtures';

const sandbox = useSandbox();

describe('request timeouts: one per kind of call, from the credential', () => {
	it.each([
		['/v1/apps/11/ai/completions', 'ai'],
		['/v1/apps/11/ai/embeddings', 'ai'],
		['/v1/communicate/email', 'communicate'],
		['/v1/communicate/sms/batch', 'communicate'],
		['/v1/data-sources/5/data/query', 'data'],
		['/v1/apps/11/publish', 'data'],
		['/v1/data-sources/ai/data', 'data'],
	])('%s is a %s call', (path, kind) => {
		expect(timeoutKind(path)).toBe(kind);
	});

	it('the credential fields default to 60 s for data, 30 s for email and SMS, 300 s for AI', () => {
		const fields = Object.fromEntries(
			new FlipletApi().properties.map((property) => [property.name, property.default]),
		);
		expect({
			data: fields.timeout,
			communicate: fields.communicateTimeout,
			ai: fields.aiTimeout,
		}).toEqual(DEFAULT_TIMEOUT_SECONDS);
		expect(DEFAULT_TIMEOUT_SECONDS).toEqual({ data: 60, communicate: 30, ai: 300 });
		expect(timeoutFor('ai', {})).toBe(300_000);
		expect(timeoutFor('communicate', { communicateTimeout: 0 })).toBe(30_000);
		expect(timeoutFor('data', { timeout: 5 })).toBe(5_000);
	});

	// Each call meets the same 1.5 s delay; only the field of its own kind is short (0.5 s), so the
	// error's "within 0.5 s" (or its absence) shows which field applied.
	const credentials = (short: 'timeout' | 'communicateTimeout' | 'aiTimeout' | 'none') => {
		const { flipletApi } = sandboxCredential(sandbox());
		return {
			flipletApi: {
				...flipletApi,
				timeout: 10,
				communicateTimeout: 10,
				aiTimeout: 10,
				...(short === 'none' ? {} : { [short]: 0.5 }),
			},
		};
	};

	it('an AI call waits for the AI timeout, not the short data timeout', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 1500, path: '/ai/completions$' });
		const result = await runNode({
			parameters: {
				resource: 'ai',
				operation: 'generateText',
				app: PUBLISHED_APP,
				model: 'gpt-4o-mini',
				prompt: 'Hello',
			} as never,
			// Data and email calls would give up after 0.5 s; the AI field allows 10 s.
			credentials: {
				flipletApi: { ...credentials('none').flipletApi, timeout: 0.5, communicateTimeout: 0.5 },
			},
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sandbox(), /ai\/completions$/)).toHaveLength(1);
	});

	it('an email gives up after the email timeout, and is not sent again', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 1500, path: '^/v1/communicate/email$' });
		const result = await runNode({
			parameters: {
				resource: 'email',
				operation: 'send',
				to: 'ann@example.com',
				subject: 'Hi',
				html: '<p>Hi</p>',
			},
			credentials: credentials('communicateTimeout'),
		});
		expect(result.error?.message).toMatch(/no complete answer within 0.5 s$/);
		expect(apiRequests(sandbox(), /^\/v1\/communicate/)).toHaveLength(1);
	});

	it('a data write gives up after the data timeout', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 1500, method: 'POST', path: 'publish$' });
		const result = await runNode({
			parameters: publishApp11,
			credentials: credentials('timeout'),
		});
		expect(result.error?.message).toMatch(/no complete answer within 0.5 s$/);
		expect(apiRequests(sandbox(), /publish$/)).toHaveLength(1);
	});
});
