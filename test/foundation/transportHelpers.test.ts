/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
// The transport's pure helpers (signals, waits, deadlines, how a failure is classed), tested
// directly: each is a function of its arguments, with no n8n context to stand in for.
import { getEventListeners } from 'node:events';

import {
	abortReason,
	anySignal,
	pause,
	pauseUnlessAborted,
	requestSignal,
	RunEndedError,
	untilAborted,
	withCancelSignal,
	withRunScope,
} from '../../nodes/Fliplet/transport/abort';
import { DeadlineError, startDeadline } from '../../nodes/Fliplet/transport/deadline';
import {
	backoffMs,
	isCutBody,
	isNetworkFault,
	mayHaveReachedServer,
} from '../../nodes/Fliplet/transport/retryPolicy';

const abortedWith = (reason?: unknown) => {
	const controller = new AbortController();
	controller.abort(reason);
	return controller.signal;
};

describe('abortReason', () => {
	it('is the reason itself when it is an Error', () => {
		const reason = new RunEndedError();
		expect(abortReason(abortedWith(reason))).toBe(reason);
	});

	it('wraps any other reason as an Error with its text', () => {
		const error = abortReason(abortedWith('stopped by the user'));
		expect(error).toBeInstanceOf(Error);
		expect(error.message).toBe('stopped by the user');
	});

	it('names the abort when the signal has no reason at all', () => {
		const signal = { reason: undefined } as unknown as AbortSignal;
		expect(abortReason(signal).message).toBe('The request was aborted');
	});
});

describe('untilAborted', () => {
	it('gives the promise its value when nothing aborts, and leaves no listener behind', async () => {
		const controller = new AbortController();
		await expect(untilAborted(Promise.resolve(7), controller.signal)).resolves.toBe(7);
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
	});

	it('removes its listener when the promise fails too', async () => {
		const controller = new AbortController();
		await expect(untilAborted(Promise.reject(new Error('no')), controller.signal)).rejects.toThrow(
			'no',
		);
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
	});

	it('rejects at once with the reason of a signal aborted before it starts', async () => {
		let settled = false;
		const never = new Promise<number>(() => undefined);
		const racing = untilAborted(never, abortedWith(new Error('already stopped'))).finally(() => {
			settled = true;
		});
		await expect(racing).rejects.toThrow('already stopped');
		expect(settled).toBe(true);
	});

	it('rejects with the reason as soon as the signal aborts, while the promise still runs', async () => {
		const controller = new AbortController();
		const racing = untilAborted(new Promise<number>(() => undefined), controller.signal);
		controller.abort(new Error('execution stopped'));
		await expect(racing).rejects.toThrow('execution stopped');
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
	});

	it('is the promise itself without a signal', async () => {
		await expect(untilAborted(Promise.resolve('plain'))).resolves.toBe('plain');
	});
});

describe('pause and pauseUnlessAborted', () => {
	it('waits about the time asked without a signal, and with one that never aborts', async () => {
		let started = Date.now();
		await pause(40);
		expect(Date.now() - started).toBeGreaterThanOrEqual(35);
		started = Date.now();
		await pause(40, new AbortController().signal);
		expect(Date.now() - started).toBeGreaterThanOrEqual(35);
	});

	it('ends a long wait as soon as the signal aborts, with its reason', async () => {
		const controller = new AbortController();
		const started = Date.now();
		const waiting = pause(60_000, controller.signal);
		setTimeout(() => controller.abort(new Error('stop')), 20);
		await expect(waiting).rejects.toThrow('stop');
		expect(Date.now() - started).toBeLessThan(5_000);
	});

	it('says true after a full wait and false after an abort', async () => {
		await expect(pauseUnlessAborted(10, new AbortController().signal)).resolves.toBe(true);
		await expect(pauseUnlessAborted(10)).resolves.toBe(true);
		await expect(pauseUnlessAborted(60_000, abortedWith(new Error('x')))).resolves.toBe(false);
	});

	it('leaves no unhandled failure behind when the signal aborted before the wait', async () => {
		const unhandled: unknown[] = [];
		const record = (reason: unknown) => unhandled.push(reason);
		process.on('unhandledRejection', record);
		try {
			await expect(pause(60_000, abortedWith(new Error('stopped first')))).rejects.toThrow(
				'stopped first',
			);
			await new Promise((resolve) => setTimeout(resolve, 20));
		} finally {
			process.off('unhandledRejection', record);
		}
		expect(unhandled).toEqual([]);
	});
});

describe('anySignal', () => {
	it('is undefined for none, the signal itself for one', () => {
		const only = new AbortController().signal;
		expect(anySignal([])).toBeUndefined();
		expect(anySignal([undefined, undefined])).toBeUndefined();
		expect(anySignal([undefined, only])).toBe(only);
	});

	it('aborts when any of several does, with that one’s reason', () => {
		const first = new AbortController();
		const second = new AbortController();
		const combined = anySignal([first.signal, undefined, second.signal])!;
		expect(combined).not.toBe(first.signal);
		expect(combined.aborted).toBe(false);
		second.abort(new Error('second'));
		expect(combined.aborted).toBe(true);
		expect(abortReason(combined).message).toBe('second');
	});
});

describe('run scope and the request signal', () => {
	it('aborts what the run sent once it ends, and ends with it', async () => {
		const context = {};
		let during: AbortSignal | undefined;
		const result = await withRunScope(context, async () => {
			during = requestSignal(context);
			expect(during?.aborted).toBe(false);
			return 'done';
		});
		expect(result).toBe('done');
		expect(during?.aborted).toBe(true);
		expect(abortReason(during!)).toBeInstanceOf(RunEndedError);
		expect(requestSignal(context)).toBeUndefined();
	});

	it('aborts what the run sent when the run throws, and passes the error on', async () => {
		const context = {};
		let during: AbortSignal | undefined;
		await expect(
			withRunScope(context, async () => {
				during = requestSignal(context);
				throw new Error('the operation failed');
			}),
		).rejects.toThrow('the operation failed');
		expect(during?.aborted).toBe(true);
	});

	it('keeps a newer scope of the same context when an older one ends', async () => {
		const context = {};
		let release!: () => void;
		const older = withRunScope(context, () => new Promise<void>((resolve) => (release = resolve)));
		let newerSignal: AbortSignal | undefined;
		let endNewer!: () => void;
		const newer = withRunScope(context, async () => {
			newerSignal = requestSignal(context);
			await new Promise<void>((resolve) => (endNewer = resolve));
		});
		release();
		await older;
		expect(requestSignal(context)).toBe(newerSignal);
		expect(newerSignal?.aborted).toBe(false);
		endNewer();
		await newer;
		expect(requestSignal(context)).toBeUndefined();
	});

	it("combines the caller's signal, the execution's and the run's", async () => {
		const execution = new AbortController();
		const own = new AbortController();
		const context = { getExecutionCancelSignal: () => execution.signal };
		expect(requestSignal(context)).toBe(execution.signal);
		await withRunScope(context, async () => {
			const signal = requestSignal(context, own.signal)!;
			expect(signal.aborted).toBe(false);
			execution.abort(new Error('stopped'));
			expect(signal.aborted).toBe(true);
		});
		expect(requestSignal({ getExecutionCancelSignal: 'not a function' })).toBeUndefined();
		expect(requestSignal({}, own.signal)).toBe(own.signal);
	});

	it("shows n8n's helper the combined signal and keeps the rest of the context", () => {
		const signal = new AbortController().signal;
		const context = { helpers: 'kept', getExecutionCancelSignal: () => undefined };
		const view = withCancelSignal(context, signal);
		expect(view.getExecutionCancelSignal()).toBe(signal);
		expect(view.helpers).toBe('kept');
		expect(context.getExecutionCancelSignal()).toBeUndefined();
	});
});

describe('startDeadline', () => {
	it('aborts at the deadline with a timeout error, and says it expired', async () => {
		const deadline = startDeadline(30);
		expect(deadline.expired).toBe(false);
		await new Promise((resolve) => deadline.signal.addEventListener('abort', resolve));
		expect(deadline.expired).toBe(true);
		const reason = abortReason(deadline.signal);
		expect(reason).toBeInstanceOf(DeadlineError);
		expect((reason as DeadlineError).code).toBe('ETIMEDOUT');
		expect(reason.message).toBe('no complete answer within 0.03 s');
	});

	it('never fires once cleared', async () => {
		const deadline = startDeadline(20);
		deadline.clear();
		await new Promise((resolve) => setTimeout(resolve, 60));
		expect(deadline.signal.aborted).toBe(false);
		expect(deadline.expired).toBe(false);
	});

	it('aborts with its parent, which does not count as expiring', () => {
		const parent = new AbortController();
		const deadline = startDeadline(60_000, parent.signal);
		parent.abort(new Error('stopped'));
		expect(deadline.signal.aborted).toBe(true);
		expect(deadline.expired).toBe(false);
		deadline.clear();
	});
});

describe('how a failure is classed', () => {
	it('knows a body cut mid-way by its code or its message', () => {
		expect(isCutBody('ERR_STREAM_PREMATURE_CLOSE', '')).toBe(true);
		expect(isCutBody('UND_ERR_SOCKET', '')).toBe(true);
		expect(isCutBody('ERR_BAD_RESPONSE', 'stream has been aborted')).toBe(true);
		expect(isCutBody(undefined, 'Premature close')).toBe(true);
		expect(isCutBody(undefined, 'aborted')).toBe(true);
		expect(isCutBody(undefined, 'terminated')).toBe(true);
		expect(isCutBody('ERR_BAD_RESPONSE', 'Request failed with status code 500')).toBe(false);
		expect(isCutBody(undefined, 'the request was aborted by the user')).toBe(false);
	});

	it('retries network faults by code or message, not answers', () => {
		for (const code of ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']) {
			expect(isNetworkFault(code, '')).toBe(true);
		}
		expect(isNetworkFault(undefined, 'socket hang up')).toBe(true);
		expect(isNetworkFault(undefined, 'timeout of 2000ms exceeded')).toBe(true);
		expect(isNetworkFault('ERR_BAD_RESPONSE', 'stream has been aborted')).toBe(true);
		expect(isNetworkFault('ERR_BAD_REQUEST', 'Request failed with status code 400')).toBe(false);
		expect(isNetworkFault(undefined, 'Unexpected token < in JSON')).toBe(false);
	});

	it('counts a refused connection or an unknown host as never having reached the server', () => {
		expect(mayHaveReachedServer('ECONNREFUSED', '')).toBe(false);
		expect(mayHaveReachedServer('EAI_AGAIN', '')).toBe(false);
		expect(mayHaveReachedServer(undefined, 'connect ECONNREFUSED 127.0.0.1:9')).toBe(false);
		expect(mayHaveReachedServer(undefined, 'getaddrinfo ENOTFOUND api.example')).toBe(false);
		expect(mayHaveReachedServer('ECONNRESET', 'socket hang up')).toBe(true);
		expect(mayHaveReachedServer('ETIMEDOUT', '')).toBe(true);
	});

	it('backs off within half and all of a ceiling that doubles up to 8 s', () => {
		for (let i = 0; i < 50; i++) {
			const first = backoffMs(0);
			expect(first).toBeGreaterThanOrEqual(150);
			expect(first).toBeLessThanOrEqual(300);
			const third = backoffMs(2);
			expect(third).toBeGreaterThanOrEqual(600);
			expect(third).toBeLessThanOrEqual(1200);
			const late = backoffMs(20);
			expect(late).toBeGreaterThanOrEqual(4000);
			expect(late).toBeLessThanOrEqual(8000);
		}
	});
});
