import { NodeHelpers, type INodeProperties } from 'n8n-workflow';

import {
	apiRequests,
	recordGuardedRegex,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/*
 * n8n checks every node's parameters when a workflow starts. A locator mode with a `validation`
 * regex is evaluated there by n8n-workflow's guarded regex engine, which gives up after 250 ms of
 * wall time: on a busy machine (or during a long garbage collection) even `^[0-9]+$` can fail the
 * run with "Regular expression execution timed out". The node checks IDs itself, per item, so its
 * locators carry no regex for n8n to run.
 */
describe('locator checks run in the node, not in n8n’s guarded regex engine', () => {
	it('the recorder sees a locator validation regex when there is one', async () => {
		const property: INodeProperties = {
			displayName: 'Thing',
			name: 'thing',
			type: 'resourceLocator',
			default: { mode: 'id', value: '' },
			modes: [
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					validation: [{ type: 'regex', properties: { regex: '[0-9]+', errorMessage: 'No' } }],
				},
			],
		};
		const node = {
			id: 'n',
			name: 'N',
			type: 't',
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: { thing: byId('12') },
		};
		const patterns = await recordGuardedRegex(async () =>
			NodeHelpers.getNodeParametersIssues([property], node, null),
		);
		expect(patterns).toEqual(['^[0-9]+$']);
	});

	it.each([
		[
			'App Analytics → Get Sessions',
			{ resource: 'appAnalytics', operation: 'getSessions', app: byId('11'), limit: 1 },
			TOKENS.org,
			'/v1/apps/11/analytics/sessions',
		],
		[
			'Entry → Get',
			{ resource: 'entry', operation: 'get', dataSource: byId('100'), entryId: '201' },
			TOKENS.app,
			'/v1/data-sources/100/data/201',
		],
		[
			'Organization Token → Delete',
			{
				resource: 'organizationToken',
				operation: 'delete',
				organization: byId('1'),
				token: byId('999999'),
			},
			TOKENS.org,
			'/v1/organizations/1/tokens/999999',
		],
	])('%s by ID starts without a guarded regex', async (_name, parameters, token, path) => {
		const patterns = await recordGuardedRegex(() =>
			runNode({
				parameters: parameters as never,
				credentials: sandboxCredential(sandbox(), token),
				continueOnFail: true,
			}),
		);
		expect(patterns).toEqual([]);
		expect(apiRequests(sandbox()).map((request) => request.path)).toContain(path);
	});

	it('a locator ID that is not a number is still refused, by the node, with its item', async () => {
		const result = await runNode({
			parameters: { resource: 'appAnalytics', operation: 'getSessions', app: byId('twelve') },
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error?.message).toBe('App: "twelve" is not an id');
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(apiRequests(sandbox())).toHaveLength(0);
	});
});
