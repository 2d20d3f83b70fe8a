import { createHash } from 'crypto';

/** A token as a map key: hashed, since the key outlives the request and should not hold the token. */
export function tokenKey(token: unknown): string {
	return createHash('sha256')
		.update(String(token ?? '').trim())
		.digest('hex')
		.slice(0, 32);
}
