/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import {
	apiRequests,
	createSandbox,
	runNode,
	sandboxCredential,
	type Sandbox,
} from '../test/harness';

const ITEMS = Number(process.env.EMAIL_BENCH_ITEMS ?? 1000);
const WINDOW_MS = Number(process.env.EMAIL_BENCH_WINDOW_MS ?? 500);
const LIMIT = 20;

interface Scenario {
	name: string;
	sendInBatches: boolean;
	batchSize?: number;
	rateLimited: boolean;
}

interface Outcome {
	requests: number;
	refused: number;
	sent: number;
	ms: number;
	minimumMs: number;
}

/** The least time a sliding window of LIMIT requests per windowMs allows for n requests. */
export function minimumMs(requests: number, windowMs: number): number {
	return Math.max(0, Math.ceil(requests / LIMIT) - 1) * windowMs;
}

async function runScenario(sandbox: Sandbox, scenario: Scenario): Promise<Outcome> {
	sandbox.reset();
	sandbox.rateLimiter.enabled = scenario.rateLimited;
	sandbox.rateLimiter.limits.communicate = { limit: LIMIT, windowMs: WINDOW_MS };
	const input = Array.from({ length: ITEMS }, (_, n) => ({
		json: { to: `user${n}@example.com`, name: `User ${n}` },
	}));
	const started = performance.now();
	const result = await runNode({
		parameters: {
			resource: 'email',
			operation: 'send',
			to: '={{ $json.to }}',
			subject: '={{ "Hello " + $json.name }}',
			html: '=<p>Hi {{ $json.name }}</p>',
			sendInBatches: scenario.sendInBatches,
			batchSize: scenario.batchSize ?? 50,
		},
		input,
		credentials: sandboxCredential(sandbox),
	});
	const ms = performance.now() - started;
	if (result.error) throw result.error;
	if (
		result.items.length !== ITEMS ||
		result.items.some((item, i) => (item.pairedItem as { item: number }).item !== i)
	) {
		throw new Error(`${scenario.name}: outputs are not paired one per input item`);
	}
	const requests = apiRequests(sandbox, /^\/v1\/communicate/);
	const accepted = requests.filter((r) => r.status === 200).length;
	return {
		requests: requests.length,
		refused: requests.filter((r) => r.status === 429).length,
		sent: sandbox.state.sent.emails.length,
		ms,
		minimumMs: scenario.rateLimited ? minimumMs(accepted, WINDOW_MS) : 0,
	};
}

async function main() {
	const sandbox = createSandbox();
	await sandbox.start();
	const scenarios: Scenario[] = [
		{ name: 'one request per item, no rate limit', sendInBatches: false, rateLimited: false },
		{
			name: 'batches of 50, no rate limit',
			sendInBatches: true,
			batchSize: 50,
			rateLimited: false,
		},
		{
			name: `batches of 50, limit ${LIMIT}/${WINDOW_MS} ms`,
			sendInBatches: true,
			batchSize: 50,
			rateLimited: true,
		},
		{
			name: `batches of 10, limit ${LIMIT}/${WINDOW_MS} ms`,
			sendInBatches: true,
			batchSize: 10,
			rateLimited: true,
		},
		{
			name: `one request per item, limit ${LIMIT}/${WINDOW_MS} ms`,
			sendInBatches: false,
			rateLimited: true,
		},
	];
	console.log(`Email Send, ${ITEMS} input items, n8n's real engine, sandbox on 127.0.0.1`);
	console.log('scenario | requests (429s) | emails recorded | time | limit minimum | ratio');
	try {
		for (const scenario of scenarios) {
			const outcome = await runScenario(sandbox, scenario);
			const ratio = outcome.minimumMs > 0 ? (outcome.ms / outcome.minimumMs).toFixed(3) : 'n/a';
			console.log(
				`${scenario.name} | ${outcome.requests} (${outcome.refused}) | ${outcome.sent} | ${(outcome.ms / 1000).toFixed(2)} s | ${(outcome.minimumMs / 1000).toFixed(2)} s | ${ratio}`,
			);
		}
		console.log(
			`At the real limit (20 per 30 s) the minimum for n requests is (ceil(n/20) − 1) × 30 s: 1000 single sends ≥ ${minimumMs(ITEMS, 30_000) / 1000} s, batches of 50 (${Math.ceil(ITEMS / 50)} requests) ≥ ${minimumMs(Math.ceil(ITEMS / 50), 30_000) / 1000} s.`,
		);
	} finally {
		await sandbox.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
