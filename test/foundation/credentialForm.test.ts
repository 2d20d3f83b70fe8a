import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { FlipletApi } from '../../credentials/FlipletApi.credentials';
import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';

const sandbox = useSandbox();
const { properties } = new FlipletApi();

/** The form's values: the declared defaults, with what the user changed. */
function formValues(changed: INodeParameters = {}): INodeParameters {
	const values: INodeParameters = {};
	for (const property of properties) {
		if (!(property.name in values)) values[property.name] = property.default;
	}
	return { ...values, ...changed };
}

/** The fields the form shows for these values, in order (n8n's own display rules). */
function shownFields(values: INodeParameters): string[] {
	return properties
		.filter((property) => NodeHelpers.displayParameter(values, property, null, null))
		.map((property) => property.name);
}

/**
 * What n8n hands the node for stored credential data: the values of the fields the form shows,
 * defaults filled in (n8n's CredentialsHelper applies `getNodeParameters` this way).
 */
function asN8nResolves(data: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
	return NodeHelpers.getNodeParameters(
		properties,
		data as INodeParameters,
		true,
		false,
		null,
		null,
	) as ICredentialDataDecryptedObject;
}

const ADVANCED = ['aiPlan', 'processes', 'timeout', 'communicateTimeout', 'aiTimeout'];

describe('The Fliplet API credential form', () => {
	it('shows the token, the region (Automatic) and the switch for the rest by default', () => {
		const values = formValues();
		expect(values.region).toBe('auto');
		expect(values.aiPlan).toBe('free');
		expect(values.advancedSettings).toBe(false);
		const shown = shownFields(values);
		// Three fields, the third the switch that opens the settings with a safe default.
		expect(shown).toEqual(['accessToken', 'region', 'advancedSettings']);
		expect(properties.find((property) => property.name === 'region')?.options?.[0]).toMatchObject({
			name: 'Automatic (From the Token Prefix)',
			value: 'auto',
		});
	});

	it('Advanced Settings shows the plan, the process count and the three timeouts, each once', () => {
		const changed = {
			aiPlan: 'paid',
			processes: 3,
			timeout: 90,
			communicateTimeout: 45,
			aiTimeout: 600,
		};
		for (const values of [{}, changed]) {
			expect(shownFields(formValues({ advancedSettings: true, ...values }))).toEqual([
				'accessToken',
				'region',
				'advancedSettings',
				...ADVANCED,
			]);
		}
	});

	it('a custom region adds the base URL and the file hosts', () => {
		expect(shownFields(formValues({ region: 'custom' }))).toEqual([
			'accessToken',
			'region',
			'baseUrl',
			'fileHosts',
			'advancedSettings',
		]);
	});

	it('a new credential hands the node no advanced value: the node uses the defaults', () => {
		expect(asN8nResolves({ accessToken: 'eu--x', region: 'auto' })).toEqual({
			accessToken: 'eu--x',
			region: 'auto',
			advancedSettings: false,
		});
	});

	it('a paid plan set under Advanced Settings stays when the switch is turned off, and shows', () => {
		const saved = { accessToken: 'eu--x', region: 'auto', advancedSettings: false, aiPlan: 'paid' };
		expect(asN8nResolves(saved)).toEqual(saved);
		expect(shownFields(formValues(saved))).toEqual([
			'accessToken',
			'region',
			'advancedSettings',
			'aiPlan',
		]);
	});

	it('a credential saved before the switch existed keeps the values it changed, and shows them', () => {
		const saved = {
			accessToken: 'eu--x',
			region: 'auto',
			aiPlan: 'paid',
			processes: 3,
			timeout: 60,
			communicateTimeout: 30,
			aiTimeout: 600,
		};
		expect(asN8nResolves(saved)).toEqual({
			accessToken: 'eu--x',
			region: 'auto',
			advancedSettings: false,
			aiPlan: 'paid',
			processes: 3,
			aiTimeout: 600,
		});
		expect(shownFields(formValues(saved))).toEqual([
			'accessToken',
			'region',
			'advancedSettings',
			'aiPlan',
			'processes',
			'aiTimeout',
		]);
	});

	it('with the switch on, every advanced value reaches the node, defaults included', () => {
		expect(
			asN8nResolves({ accessToken: 'eu--x', advancedSettings: true, communicateTimeout: 45 }),
		).toMatchObject({ processes: 1, timeout: 60, communicateTimeout: 45, aiTimeout: 300 });
	});

	it('a run with a credential saved before the switch uses its changed timeout', async () => {
		sandbox().injectFault({ mode: 'delay', delayMs: 3000, path: '^/v1/apps$', count: 10 });
		const { flipletApi } = sandboxCredential(sandbox(), TOKENS.org);
		const result = await runNode({
			parameters: { resource: 'app', operation: 'getMany', returnAll: true },
			credentials: { flipletApi: asN8nResolves({ ...flipletApi, timeout: 1 }) },
		});
		expect(result.error?.message).toMatch(/timeout/i);
		expect(result.error?.description).toMatch(
			/Data Timeout \(Seconds\)" in the credential's Advanced Settings/,
		);
		expect(apiRequests(sandbox(), /^\/v1\/apps$/).length).toBeGreaterThanOrEqual(1);
	});
});
