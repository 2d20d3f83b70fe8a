/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { TwilioForFlipletApi } from '../../credentials/TwilioForFlipletApi.credentials';
import {
	flipletTestNodeDescription,
	registerCredentialType,
	registerNodeType,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';
import { findSecretLeaks, secretsOf, SecretLeakError } from '../harness/secretScan';

const sandbox = useSandbox();

type Leak = 'output' | 'error' | 'description' | 'log' | 'none';

/** A deliberately careless node: it puts its own token where the scanner must find it. */
function leakyNode(leak: Leak): INodeType {
	return {
		description: flipletTestNodeDescription('leaky', 'Leaky', 'Test node that leaks its token'),
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const { accessToken } = await this.getCredentials<{ accessToken: string }>('flipletApi');
			const node = this.getNode();
			if (leak === 'error') throw new NodeOperationError(node, `Token ${accessToken} refused`);
			if (leak === 'description') {
				throw new NodeOperationError(node, 'Refused', { description: `Token: ${accessToken}` });
			}
			if (leak === 'log') this.logger.debug('Calling the API', { token: accessToken });
			return [[{ json: leak === 'output' ? { header: accessToken } : { ok: true } }]];
		},
	};
}

for (const leak of ['output', 'error', 'description', 'log', 'none'] as const) {
	registerNodeType(`test.leaky.${leak}`, () => leakyNode(leak));
}

describe('the suite-wide secret scanner of runNode', () => {
	it.each(['output', 'error', 'description', 'log'] as const)(
		'fails a run whose token shows up in its %s',
		async (leak) => {
			await expect(
				runNode({
					nodeType: `test.leaky.${leak}`,
					parameters: {},
					credentials: sandboxCredential(sandbox()),
				}),
			).rejects.toThrow(SecretLeakError);
		},
	);

	it('passes the same node when it leaks nothing', async () => {
		const result = await runNode({
			nodeType: 'test.leaky.none',
			parameters: {},
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.json).toEqual([{ ok: true }]);
	});

	it('knows every sandbox token and the password fields of the credentials, not the rest', () => {
		const secrets = secretsOf({
			flipletApi: { accessToken: 'eu--custom-token-123', region: 'custom', baseUrl: 'http://x' },
			unknownType: { apiKey: 'sk-unregistered-secret' },
		});
		expect(secrets).toEqual(
			expect.arrayContaining([
				...Object.values(TOKENS),
				'eu--custom-token-123',
				'sk-unregistered-secret',
			]),
		);
		expect(secrets).not.toContain('http://x');
		expect(secrets).not.toContain('custom');
	});

	it("knows a Twilio credential's auth token (a password field), not its account SID", () => {
		registerCredentialType(new TwilioForFlipletApi());
		const secrets = secretsOf({
			twilioForFlipletApi: { accountSid: 'AC0123456789abcdef', authToken: 'twilio-secret-42' },
		});
		expect(secrets).toContain('twilio-secret-42');
		expect(secrets).not.toContain('AC0123456789abcdef');
	});

	it('names where the secret was found', () => {
		const error = Object.assign(new Error('fine'), { context: { sent: TOKENS.org } });
		expect(findSecretLeaks({ items: [], error, logs: [] }, [TOKENS.org])).toEqual([
			expect.stringMatching(/^error context contain/),
			expect.stringMatching(/^error contain/),
		]);
		expect(findSecretLeaks({ items: [], logs: [`x ${TOKENS.org}`] }, [TOKENS.org])).toEqual([
			expect.stringMatching(/^logs contain/),
		]);
	});
});
