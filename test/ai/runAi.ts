import { runNode, sandboxCredential, type Sandbox, type TestItem } from '../harness';
import { PUBLISHED_APP } from './fixtures';

export interface RunAiOptions {
	input?: TestItem[];
	continueOnFail?: boolean;
	/** The token of the credential (default: the app token). */
	token?: string;
}

/** Runs one AI operation on the published app, with the sandbox's credential. */
export function runAi(
	sandbox: Sandbox,
	operation: string,
	parameters: Record<string, unknown>,
	options: RunAiOptions = {},
) {
	return runNode({
		parameters: { resource: 'ai', operation, app: PUBLISHED_APP, ...parameters } as never,
		input: options.input,
		credentials: sandboxCredential(sandbox, options.token),
		continueOnFail: options.continueOnFail,
	});
}
