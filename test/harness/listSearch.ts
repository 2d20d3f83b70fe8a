/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { LoadOptionsContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	INode,
	INodeListSearchResult,
	INodeParameters,
	IWorkflowBase,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { additionalData, FLIPLET_NODE, nodeTypes } from './engine';
import { assertNoSecretLeak, logsSinceCapture, secretsOf, startLogCapture } from './secretScan';

/** What n8n-core's LoadOptionsContext needs: the node's parameters and its credentials. */
export interface LoadOptionsContextOptions {
	/** Current parameters of the node (what the user already filled in). */
	parameters?: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	nodeType?: string;
	/** The path of the field being filled, e.g. `parameters.token`. */
	path?: string;
	/**
	 * The node is open in the editor: its parameters are also the `currentNodeParameters`, which
	 * fields that depend on another (getCurrentNodeParameter) read.
	 */
	editing?: boolean;
}

export interface ListSearchOptions extends LoadOptionsContextOptions {
	/** The `searchListMethod` name, e.g. `searchApps`. */
	method: string;
	filter?: string;
	paginationToken?: string;
}

/** n8n-core's real LoadOptionsContext, the one the editor's list searches and option loaders get. */
export function loadOptionsContext(options: LoadOptionsContextOptions): LoadOptionsContext {
	const parameters = options.parameters ?? {};
	const node: INode = {
		id: 'node-under-test',
		name: 'Under Test',
		type: options.nodeType ?? FLIPLET_NODE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: Object.fromEntries(
			Object.keys(options.credentials).map((name) => [
				name,
				{ id: `cred-${name}`, name: `Test ${name}` },
			]),
		),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const workflowData = { id: 'list-search', name: 'List search', nodes: [node], connections: {} };
	const data = additionalData(
		options.credentials,
		'list-search',
		'manual',
		workflowData as unknown as IWorkflowBase,
	);
	if (options.editing) data.currentNodeParameters = parameters;
	return new LoadOptionsContext(workflow, node, data, options.path ?? 'parameters');
}

/**
 * Calls a node's list-search method with n8n-core's real LoadOptionsContext, the way the editor
 * fills a resource locator's "From List" mode.
 */
export async function runListSearch(options: ListSearchOptions): Promise<INodeListSearchResult> {
	const type = options.nodeType ?? FLIPLET_NODE;
	const context = loadOptionsContext(options);
	const search = nodeTypes.getByName(type).methods?.listSearch?.[options.method];
	if (!search) throw new Error(`The node ${type} has no list-search method ${options.method}`);
	// As every runNode: no token or credential secret in the results, the error or the logs.
	const secrets = secretsOf(options.credentials);
	startLogCapture();
	let result: INodeListSearchResult;
	try {
		result = await search.call(context, options.filter, options.paginationToken);
	} catch (error) {
		assertNoSecretLeak({ items: [], error: error as Error, logs: logsSinceCapture() }, secrets);
		throw error;
	}
	assertNoSecretLeak({ items: result, logs: logsSinceCapture() }, secrets);
	return result;
}
