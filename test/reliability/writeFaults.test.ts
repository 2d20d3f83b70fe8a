import { apiRequests, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { WRITE_CASES, type WriteCase } from './writeCases';

const sandbox = useSandbox();

/**
 * Only the delay fault needs a short credential timeout (in seconds). It is far above what a normal
 * answer takes even on a busy machine; the delayed answer never comes before the node gives up.
 */
const TIMEOUT_SECONDS = 2;

const FAULTS = [
	['a 500 after processing', { mode: 'status-after' as const, status: 500 }],
	['a connection dropped after processing', { mode: 'drop-after' as const }],
	['an answer after the timeout', { mode: 'delay' as const, delayMs: 60_000 }],
] as const;

const table = WRITE_CASES.flatMap((write) =>
	FAULTS.map(([faultName, fault]) => [write.name, faultName, write, fault] as const),
);

function credentials(write: WriteCase, fault: { mode: string }) {
	const { flipletApi } = sandboxCredential(sandbox(), write.token ?? TOKENS.app);
	return fault.mode === 'delay'
		? {
				flipletApi: {
					...flipletApi,
					timeout: TIMEOUT_SECONDS,
					communicateTimeout: TIMEOUT_SECONDS,
					aiTimeout: TIMEOUT_SECONDS,
				},
			}
		: { flipletApi };
}

describe('every write operation under faults', () => {
	it.each(table)('%s meets %s', async (_name, _fault, write, fault) => {
		const overrides = (await write.setup?.(sandbox())) ?? {};
		sandbox().injectFault({ ...fault, method: write.method, path: write.path.source });

		const result = await runNode({
			parameters: { ...write.parameters, ...overrides },
			input: write.input,
			credentials: credentials(write, fault),
		});

		const writes = apiRequests(sandbox(), write.path).filter((r) => r.method === write.method);
		if (write.idempotent) {
			expect(result.error).toBeUndefined();
			expect(writes).toHaveLength(2);
			if (write.method === 'DELETE') {
				// The first attempt deleted it; the re-sent DELETE finds nothing, which is success.
				expect(writes[1].status).toBe(404);
			} else {
				expect(writes[1].status).toBeGreaterThanOrEqual(200);
				expect(writes[1].status).toBeLessThan(300);
			}
			expect(result.json).toHaveLength(1);
			expect(result.json[0].error).toBeUndefined();
		} else {
			expect(writes).toHaveLength(1);
			expect(result.error?.description).toMatch(/may already have been processed/);
			expect(result.error?.description).toMatch(/not sent again/);
			expect(result.error?.context?.itemIndex).toBe(0);
		}
		expect(write.effects(sandbox())).toBe(1);
	});
});

describe('a DELETE that finds nothing', () => {
	it('is an error when no earlier attempt may have deleted it', async () => {
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'delete',
				dataSource: { __rl: true, mode: 'id', value: '100' },
				entryId: '999',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(apiRequests(sandbox(), /\/data\/999$/).map((r) => r.status)).toEqual([404]);
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.context?.itemIndex).toBe(0);
	});

	it('counts as deleted after a 5xx: the entry is absent either way, which is what was asked', async () => {
		sandbox().injectFault({ mode: 'status-before', status: 503, path: '/data/999$' });
		const result = await runNode({
			parameters: {
				resource: 'entry',
				operation: 'delete',
				dataSource: { __rl: true, mode: 'id', value: '100' },
				entryId: '999',
			},
			credentials: sandboxCredential(sandbox()),
		});
		expect(apiRequests(sandbox(), /\/data\/999$/).map((r) => r.status)).toEqual([503, 404]);
		expect(result.error).toBeUndefined();
	});
});
