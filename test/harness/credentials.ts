/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

import { credentialTypes } from './packageTypes';

/**
 * Serves test credentials to the engine and applies each credential class's own `authenticate`
 * block the way n8n's server does, so tests prove the credential, not a copy of it.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type: ICredentialType | undefined = credentialTypes[typeName];
		const options = requestOptions as IHttpRequestOptions;
		const block = type?.authenticate;
		if (!block || typeof block === 'function' || block.type !== 'generic') return options;
		const resolve = (value: string) =>
			workflow && node
				? (workflow.expression.getSimpleParameterValue(
						node,
						value,
						'internal',
						{ $credentials: credentials },
						undefined,
						'',
					) as string)
				: value;
		const { headers = {}, qs = {} } = block.properties as {
			headers?: Record<string, string>;
			qs?: Record<string, string>;
		};
		options.headers = { ...(options.headers ?? {}) };
		for (const [name, value] of Object.entries(headers)) options.headers[name] = resolve(value);
		if (Object.keys(qs).length) {
			options.qs = { ...(options.qs ?? {}) };
			for (const [name, value] of Object.entries(qs)) options.qs[name] = resolve(value);
		}
		return options;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('getCredentials is not used by these tests');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credential of type ${type}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type]?.properties ?? [];
	}
}
