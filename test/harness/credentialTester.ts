/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	IHttpRequestOptions,
	INode,
	INodeType,
} from 'n8n-workflow';
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

const ROOT = path.resolve(__dirname, '../..');

/** Every node the package declares (package.json `n8n.nodes`), loaded from its TypeScript source. */
export async function packageNodeTypes(): Promise<INodeType[]> {
	const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[] };
	};
	return await Promise.all(
		manifest.n8n.nodes.map(async (file) => {
			const source = path.join(ROOT, file.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
			const exported = (await import(source)) as Record<string, new () => INodeType>;
			const NodeClass = Object.values(exported)[0];
			return new NodeClass();
		}),
	);
}

/** The node-level test n8n picks for a credential: a `testedBy` naming a `methods.credentialTest`. */
export async function nodeCredentialTest(
	typeName: string,
): Promise<ICredentialTestFunction | undefined> {
	for (const node of await packageNodeTypes()) {
		const entry = node.description.credentials?.find((credential) => credential.name === typeName);
		if (typeof entry?.testedBy === 'string') return node.methods?.credentialTest?.[entry.testedBy];
	}
	return undefined;
}

/**
 * Tests a credential the way n8n's credential tester does: the credential type's own `test`
 * request when it has one (n8n prefers it), otherwise the first node's `testedBy` function, called
 * with n8n-core's real credential test context.
 */
export async function testCredential(
	typeName: string,
	credentials: ICredentialDataDecryptedObject,
): Promise<CredentialTestOutcome> {
	const type = credentialTypes[typeName];
	const test = type?.test;
	if (!test) {
		const testFunction = await nodeCredentialTest(typeName);
		if (!testFunction) throw new Error(`Nothing tests the credential type ${typeName}`);
		const result = await testFunction.call(new CredentialTestContext(), {
			id: 'credential-test',
			name: 'Credential Test',
			type: typeName,
			data: credentials,
		});
		return { status: result.status, message: result.message };
	}
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
