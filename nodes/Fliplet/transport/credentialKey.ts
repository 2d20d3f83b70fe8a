import { CREDENTIAL_NAME, type FlipletContext } from './request';
import { tokenKey } from './tokenKey';

/**
 * The credential a context uses, as a key for what a process remembers per token and API host
 * (the token hashed, see tokenKey).
 */
export async function credentialKey(this: FlipletContext): Promise<string> {
	const { accessToken, region, baseUrl } = await this.getCredentials(CREDENTIAL_NAME);
	return `${tokenKey(accessToken)} ${JSON.stringify([region, baseUrl])}`;
}
