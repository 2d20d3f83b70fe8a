import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, sandboxCredential, TOKENS, type RunOptions, type Sandbox } from '../harness';

/** n8n's Retry On Fail, three tries, 10 ms apart. */
export const RETRY = { maxTries: 3, waitBetweenTries: 10 };

/** A request the API refuses before doing anything: safe to send again. */
export const REFUSED = {
	mode: 'status-before' as const,
	status: 400,
	body: { message: 'Not now' },
};

/** How the node under test is set: its Retry On Fail and On Error settings. */
export type Settings = Pick<RunOptions, 'retryOnFail' | 'continueOnFail'>;

/** What the error that stopped the node says became of one item. */
export interface Outcome {
	item: number;
	outcome: string;
	output?: IDataObject[];
}

/** The per-item outcomes an error that stopped the node carries in its data (none: empty). */
export const outcomesOf = (error: unknown): Outcome[] =>
	(error as { context?: { data?: { outcomes?: Outcome[] } } })?.context?.data?.outcomes ?? [];

/** Runs the Fliplet node on one item per element of `input`, with the sandbox's credential. */
function runOn(
	sandbox: Sandbox,
	parameters: Record<string, unknown>,
	input: IDataObject[],
	settings: Settings,
	token: string = TOKENS.app,
) {
	return runNode({
		parameters: parameters as INodeParameters,
		input: input.map((json) => ({ json })),
		credentials: sandboxCredential(sandbox, token),
		...settings,
	});
}

/** App → Publish of the two published apps, 11 then 21, with the organization token. */
export function publishTwoApps(sandbox: Sandbox, settings: Settings = {}) {
	const app = { __rl: true, mode: 'id', value: '={{ $json.app }}' };
	const parameters = { resource: 'app', operation: 'publish', app, releaseType: 'silent' };
	return runOn(sandbox, parameters, [{ app: 11 }, { app: 21 }], settings, TOKENS.org);
}

/** Organization Token → Create of "First" then "Second" in organization 1. */
export function createTwoTokens(sandbox: Sandbox, settings: Settings = {}) {
	const organization = { __rl: true, mode: 'id', value: '1' };
	const parameters = { resource: 'organizationToken', operation: 'create', organization };
	const named = { ...parameters, name: '={{ $json.name }}' };
	return runOn(sandbox, named, [{ name: 'First' }, { name: 'Second' }], settings, TOKENS.org);
}

/** Entry → Commit into Staff (100): one insert per item, its name as the clientId. */
export function commitEachName(
	sandbox: Sandbox,
	names: string[],
	{ returnEntries, ...settings }: Settings & { returnEntries?: boolean } = {},
) {
	const parameters = {
		resource: 'entry',
		operation: 'commit',
		dataSource: { __rl: true, mode: 'id', value: '100' },
		entries: '={{ JSON.stringify([{ data: { Name: $json.name }, clientId: $json.name }]) }}',
		...(returnEntries ? { options: { returnEntries: true } } : {}),
	};
	return runOn(
		sandbox,
		parameters,
		names.map((name) => ({ name })),
		settings,
	);
}

/** Entry → Import of each item into the data source its `ds` names. */
export function importEach(sandbox: Sandbox, rows: IDataObject[], settings: Settings = {}) {
	const dataSource = { __rl: true, mode: 'id', value: '={{ $json.ds }}' };
	return runOn(sandbox, { resource: 'entry', operation: 'import', dataSource }, rows, settings);
}

/** An AI operation on the published app 11, one prompt or text per item. */
export function runAiOnApp(
	sandbox: Sandbox,
	parameters: Record<string, unknown>,
	input: IDataObject[],
	settings: Settings = {},
) {
	const app = { __rl: true, mode: 'id', value: '11' };
	return runOn(sandbox, { resource: 'ai', app, ...parameters }, input, settings);
}
