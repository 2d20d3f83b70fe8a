import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { TestCredentialsHelper } from './credentials';
import { FLIPLET_NODE, nodeTypes } from './engine';
import { credentialTypes } from './packageTypes';

const expressionNode: INode = {
	id: 'credential-test',
	name: 'Credential Test',
	type: FLIPLET_NODE,
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function expressionWorkflow(): Workflow {
	return new Workflow({ nodes: [expressionNode], connections: {}, active: false, nodeTypes });
}

/** Resolves a credential expression (`={{ … $credentials … }}`) with n8n's real expression engine. */
export function resolveCredentialExpression(
	expression: string,
	credentials: ICredentialDataDecryptedObject,
): unknown {
	return expressionWorkflow().expression.getSimpleParameterValue(
		expressionNode,
		expression,
		'internal',
		{ $credentials: credentials },
		undefined,
		'',
	);
}

export interface CredentialTestOutcome {
	status: 'OK' | 'Error';
	message: string;
	/** The request as it went on the wire (absent when nothing was sent). */
	sent?: { url: string; method: string; headers: Record<string, string> };
}

/**
 * Runs a credential type's `test.request` the way n8n's credential tester does: resolves the
 * request's expressions with `$credentials`, applies the credential's `authenticate` block, sends
 * it, and maps a failing status through the `responseCode` rules.
 */
export async function testCredential(
	typeName: string,
	credentials: ICredentialDataDecryptedObject,
): Promise<CredentialTestOutcome> {
	const type = credentialTypes[typeName];
	const test = type?.test;
	if (!test) throw new Error(`The credential type ${typeName} has no test request`);
	const workflow = expressionWorkflow();
	const resolve = (value: string | undefined) =>
		value === undefined ? undefined : String(resolveCredentialExpression(value, credentials));
	const request: IHttpRequestOptions = {
		baseURL: resolve(test.request.baseURL),
		url: resolve(test.request.url) ?? '',
		method: test.request.method ?? 'GET',
		headers: {},
	};
	const authenticated = await new TestCredentialsHelper({}).authenticate(
		credentials,
		typeName,
		request,
		workflow,
		expressionNode,
	);
	const url = `${(authenticated.baseURL ?? '').replace(/\/+$/, '')}${authenticated.url}`;
	const headers = Object.fromEntries(
		Object.entries(authenticated.headers ?? {}).map(([name, value]) => [name, String(value)]),
	);
	const method = String(authenticated.method ?? 'GET');
	const response = await fetch(url, { method, headers, redirect: 'manual' });
	const sent = { url, method, headers };
	if (response.ok) return { status: 'OK', message: 'Connection successful!', sent };
	const rule = (test.rules ?? []).find(
		(candidate) =>
			candidate.type === 'responseCode' && candidate.properties.value === response.status,
	);
	const message =
		rule && rule.type === 'responseCode'
			? rule.properties.message
			: `Authorization failed: ${response.status} ${response.statusText}`;
	return { status: 'Error', message, sent };
}
