import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export interface ApiFailure {
	method: string;
	path: string;
	status?: number;
	body?: unknown;
	/** Network-level failure (no HTTP status): its code and message. */
	networkCode?: string;
	networkMessage?: string;
	/**
	 * What kind of network-level failure: no answer in time (`timeout`, with the credential field
	 * that sets it), an answer cut mid-way (`cut`), the run stopped or ended (`cancelled`), or any
	 * other (`network`).
	 */
	networkKind?: 'timeout' | 'cut' | 'cancelled' | 'network';
	timeoutField?: string;
	/** How many times the request was sent (redirects followed not counted). */
	attempts: number;
	/** What the first attempt met, when the last one met something else. */
	firstCause?: string;
	idempotent: boolean;
	/** A redirect that was not followed: the origin it pointed to. */
	redirectedTo?: string;
	/** A 429 that named a time further away than any wait: when the platform accepts requests again. */
	reopensAt?: string;
	/** A non-idempotent request failed in a way that leaves its effect unknown. */
	mayHaveBeenProcessed?: boolean;
	itemIndex?: number;
}

const REDACTED = '[redacted]';

export function redact(text: string, rawSecret: string | undefined): string {
	const secret = rawSecret?.trim();
	if (!secret || secret.length < 4) return text;
	return text.split(secret).join(REDACTED);
}

function bodyField(body: unknown, field: string): string | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const value = (body as Record<string, unknown>)[field];
	return typeof value === 'string' && value ? value : undefined;
}

function describe(failure: ApiFailure): { message: string; description: string } {
	const { status, body, path } = failure;
	const apiMessage = bodyField(body, 'message') ?? bodyField(body, 'error');
	const tries = failure.attempts > 1 ? ` (after ${failure.attempts} attempts)` : '';
	const unknownOutcome = failure.mayHaveBeenProcessed
		? ' The request may already have been processed, so it was not sent again automatically (that could duplicate it). Check the result in Fliplet before running this item again.'
		: '';
	const retried = retriesInWords(failure.attempts);

	if (status === undefined) {
		const reason = failure.networkMessage ?? 'the connection failed';
		if (failure.networkKind === 'cancelled') {
			return {
				// "canceled", as n8n spells it: n8n marks an execution whose error says so as canceled.
				message: `The request to the Fliplet API was canceled: ${reason}`,
				description: `It was not sent again.${unknownOutcome}`,
			};
		}
		const message =
			failure.networkKind === 'cut'
				? `The Fliplet API's answer was cut off mid-way: ${reason}${tries}`
				: failure.networkKind === 'timeout'
					? `Fliplet API timeout: ${reason}${tries}`
					: `Could not reach the Fliplet API: ${reason}${tries}`;
		const check =
			failure.networkKind === 'timeout' && failure.timeoutField
				? `Check the network and the credential's region or base URL; a slow link or a large answer may need a longer "${failure.timeoutField}" in the credential's Advanced Settings.`
				: "Check the network and the credential's region or base URL.";
		return {
			message,
			description: failure.idempotent
				? `${check} ${retried}`
				: `${check}${failure.attempts > 1 ? ` ${retried}` : ''}${unknownOutcome}`,
		};
	}

	if (failure.redirectedTo !== undefined) {
		return {
			message: `The Fliplet API redirected the request to ${failure.redirectedTo}; the redirect was not followed`,
			description:
				"The token is only sent to the credential's own host, and only GET requests follow a redirect within it. Set the credential's region, or a base URL that is the API host itself (e.g. https://api.fliplet.com), not an address that redirects.",
		};
	}

	const message = `${apiMessage ?? `The Fliplet API answered ${status}`}${tries}`;
	// A file whose access rules do not let this token read it (docs/File-security.md).
	if (status === 401 && bodyField(body, 'error') === 'file.access') {
		return {
			message,
			description:
				"The access rules of the file (or of its folder, or of the app's media) do not let this token do this: a private or encrypted file needs a rule that lets it read, an upload one that lets it create. In Fliplet Studio open the file or folder in the File Manager, then Security, and grant this token what it needs (or make the file public); an organization token of the file's organization passes every rule.",
		};
	}
	if (status === 401) {
		return {
			message: 'The token is not valid or was revoked',
			description:
				"Create a new token in Fliplet Studio (App settings → API tokens, or the organization's tokens) and update the Fliplet API credential. A token only works on its own region's host: check the credential's region.",
		};
	}
	if ((status === 400 || status === 403) && bodyField(body, 'type') === 'datasource.access') {
		return {
			message,
			description:
				"The data source's security rules do not let this token do that. In Fliplet Studio open the data source, then Security rules (or App settings → API tokens), and grant this app's token the read, write, update or delete permission it needs. Organization tokens cannot pass security rules: use an app API token.",
		};
	}
	if (status === 403) {
		return {
			message,
			description:
				'The token may not access this. Use a token of an app or organization that owns the resource, with editor or publisher rights.',
		};
	}
	if (status === 404) {
		const appPath = /^\/v1\/apps\/[^/]+/.test(path);
		const appHint =
			"API tokens only reach published apps: use the published app's productionAppId (App → Get Many shows it), not the id of the draft you edit in Studio. An app the token cannot access also answers 404.";
		const notificationPath = /^\/v1\/apps\/[^/]+\/notifications\/[^/]+$/.test(path);
		return {
			message,
			description: notificationPath
				? `Check the notification ID(s): Get Many lists the app's notifications, and a deleted one is gone. If the app is the problem: ${appHint}`
				: appPath
					? appHint
					: 'Check the id or name. Data sources can be addressed by id or by name; the token must have access to it.',
		};
	}
	if (status === 402) {
		return {
			message,
			description:
				"The account's AI credits are used up. Add credits or raise the plan in Fliplet Studio, then run again.",
		};
	}
	const transcription = /^\/v1\/apps\/[^/]+\/ai\/audio$/.test(path);
	if (status === 413) {
		return {
			message,
			description: transcription
				? 'The audio file is too large: transcription takes at most 25 MiB. Shorten or compress the recording.'
				: 'The request is larger than the API accepts. Send less in one request: fewer or smaller entries, values or files in this item.',
		};
	}
	if (status === 415) {
		return {
			message,
			description: transcription
				? 'The audio type is not supported: transcription takes webm, mp4, mpeg, wav or ogg.'
				: "The API does not accept the type of what was sent. For a file, check the MIME type of the item's binary data.",
		};
	}
	if (status === 429 && failure.reopensAt !== undefined) return capReached(failure, apiMessage);
	if (status === 429) {
		return {
			message: `Rate limit reached: ${apiMessage ?? 'too many requests'}${tries}`,
			description:
				"Fliplet limits requests per user (data sources 200/10 s, email and SMS 20/30 s, audit logs 30/10 s) and AI per organization (10 a minute on the Free plan, 100 on paid plans). The node keeps its own requests within these, and waited as the API asked when others used the same limit (another n8n process, or another client of this token); it gave up after its bounded waits with nothing served in between. Run fewer workflows at once on this token, set the credential's n8n Processes Using This Token (under Advanced Settings) to the number of n8n processes that use it, check the credential's plan, or add a Wait node.",
		};
	}
	if (status >= 500) {
		return {
			message,
			description: failure.idempotent
				? `The Fliplet API failed. ${retried} Try again later.`
				: `The Fliplet API failed.${unknownOutcome}`,
		};
	}
	return { message, description: 'The API refused the request: check the fields of this item.' };
}

/** A refusal until a time later than any wait: a cap of the plan (e.g. AI requests a day). */
function capReached(
	failure: ApiFailure,
	apiMessage: string | undefined,
): { message: string; description: string } {
	const ai = /^\/v1\/apps\/[^/]+\/ai\//.test(failure.path);
	const cap = ai
		? "a cap of your Fliplet plan: the organization's AI requests a day (100 on the Free plan, 1,000 on Public, 10,000 on Private, Private+ and Enterprise)"
		: 'a cap of your Fliplet plan or account, not a pace the node can wait out';
	return {
		message: `Rate limit reached until ${failure.reopensAt}: ${apiMessage ?? 'too many requests'}`,
		description: `Fliplet refuses these requests until ${failure.reopensAt} (${inWords(failure.reopensAt!)}): ${cap}. The node did not wait for it. Raise the plan in Fliplet Studio, or run this workflow again after that time.`,
	};
}

/** How far away a time is, in words ("in about 3 h 20 min"). */
function inWords(at: string): string {
	const minutes = Math.max(1, Math.round((Date.parse(at) - Date.now()) / 60_000));
	const hours = Math.floor(minutes / 60);
	const rest = minutes % 60;
	return `in about ${hours ? `${hours} h ` : ''}${rest || !hours ? `${rest} min` : ''}`.trim();
}

/** How often the request went out, in words: "retried" only when it was. */
function retriesInWords(attempts: number): string {
	return attempts > 1
		? `The request was sent ${attempts} times, with backoff in between, before giving up.`
		: 'The request was sent once.';
}

export function toNodeApiError(node: INode, failure: ApiFailure, secret?: string): NodeApiError {
	const described = describe(failure);
	const { message } = described;
	const description = failure.firstCause
		? `${described.description} The first attempt met: ${failure.firstCause.replace(/\.+$/, '')}.`
		: described.description;
	const safeBody =
		failure.body === undefined ? {} : JSON.parse(redact(JSON.stringify(failure.body), secret));
	const response: JsonObject = {
		status: failure.status ?? null,
		method: failure.method,
		path: failure.path,
		attempts: failure.attempts,
		body: typeof safeBody === 'object' && safeBody !== null ? safeBody : String(safeBody),
	};
	if (failure.mayHaveBeenProcessed !== undefined)
		response.mayHaveBeenProcessed = failure.mayHaveBeenProcessed;
	if (failure.firstCause !== undefined) response.firstCause = redact(failure.firstCause, secret);
	if (failure.reopensAt !== undefined) response.reopensAt = failure.reopensAt;
	if (failure.reopensAt !== undefined) response.reopensAt = failure.reopensAt;
	const error = new NodeApiError(node, response, {
		message: redact(message, secret),
		description: redact(description, secret),
		httpCode: failure.status === undefined ? undefined : String(failure.status),
		itemIndex: failure.itemIndex,
	});
	// NodeApiError swaps a message naming a network code (ECONNREFUSED, ETIMEDOUT…) for a generic
	// text; keep ours, which also says how many attempts were made.
	error.message = redact(message, secret);
	return error;
}
