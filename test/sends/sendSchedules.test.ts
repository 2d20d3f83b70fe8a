/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import fc from 'fast-check';

import {
	onSandboxRequest,
	runNode,
	resetSandbox,
	sandboxCredential,
	useSandbox,
	type RunResult,
	type SandboxFault,
	type SandboxRequest,
} from '../harness';

/**
 * Batch sends under random fault schedules: each email, SMS or notification request meets the
 * next fault of the schedule (or is served), with random item counts and batch sizes, with and
 * without n8n's Retry On Fail and On Error → Continue. After each run: every item went out at most
 * once, and what the node claims for it (sent, may have been sent, not sent) matches the sandbox.
 */
const sandbox = useSandbox();

const SCHEDULES = 150;

const FAULT_KINDS = [
	'429',
	'5xx-before',
	'5xx-after',
	'drop-before',
	'drop-after',
	'cut-after',
] as const;
type FaultKind = (typeof FAULT_KINDS)[number] | 'served';

function sandboxFault(kind: Exclude<FaultKind, 'served'>): SandboxFault {
	switch (kind) {
		case '429':
			return {
				mode: 'status-before',
				status: 429,
				body: { message: 'Too many requests', nextValidRequestDate: new Date().toISOString() },
			};
		case '5xx-before':
			return { mode: 'status-before', status: 503 };
		case '5xx-after':
			return { mode: 'status-after', status: 502 };
		default:
			return { mode: kind };
	}
}

type Channel = 'email' | 'sms' | 'notification';

interface Schedule {
	channel: Channel;
	itemCount: number;
	batched: boolean;
	batchSize: number;
	retry: boolean;
	maxTries: number;
	continueOnFail: boolean;
	faults: FaultKind[];
}

const scheduleArb: fc.Arbitrary<Schedule> = fc.record({
	channel: fc.constantFrom<Channel>('email', 'sms', 'notification'),
	itemCount: fc.integer({ min: 1, max: 6 }),
	batched: fc.boolean(),
	batchSize: fc.integer({ min: 1, max: 3 }),
	retry: fc.boolean(),
	maxTries: fc.integer({ min: 2, max: 3 }),
	continueOnFail: fc.boolean(),
	faults: fc.array(
		fc.oneof(
			{ weight: 3, arbitrary: fc.constant<FaultKind>('served') },
			{ weight: 2, arbitrary: fc.constantFrom<FaultKind>(...FAULT_KINDS) },
		),
		{ maxLength: 12 },
	),
});

/** Each item's one identity in what the sandbox receives: its recipient, number or title. */
const itemKey = (channel: Channel, itemIndex: number) =>
	channel === 'email'
		? `user${itemIndex}@example.com`
		: channel === 'sms'
			? `+44770090000${itemIndex}`
			: `Schedule ${itemIndex}`;

const SEND_PATH: Record<Channel, RegExp> = {
	email: /^\/v1\/communicate\/email(\/batch)?$/,
	sms: /^\/v1\/communicate\/sms(\/batch)?$/,
	notification: /^\/v1\/apps\/11\/notifications(\/batch)?$/,
};

/** The item keys a recorded request carried. */
function keysIn(channel: Channel, body: any): string[] {
	if (channel === 'email')
		return (body?.emails ?? [body]).map((email: any) => email?.to?.[0]?.email);
	if (channel === 'sms') return (body?.sms ?? [body]).map((sms: any) => sms?.data?.to);
	return (body?.notifications ?? [body]).map((notification: any) => notification?.data?.title);
}

/** How many times the sandbox stored each item (its own state, not the node's word). */
function storedCount(channel: Channel, key: string): number {
	const { state } = sandbox();
	const stored: string[] =
		channel === 'email'
			? state.sent.emails.map((email: any) => email.to[0].email)
			: channel === 'sms'
				? state.sent.sms.map((sms: any) => sms.data.to)
				: state.notifications.map((notification: any) => notification.data?.title);
	return stored.filter((value) => value === key).length;
}

function parameters(schedule: Schedule) {
	const batch = { sendInBatches: schedule.batched, batchSize: schedule.batchSize };
	if (schedule.channel === 'email')
		return {
			resource: 'email',
			operation: 'send',
			to: '={{ $json.key }}',
			subject: 'Hi',
			...batch,
		};
	if (schedule.channel === 'sms')
		return { resource: 'sms', operation: 'send', to: '={{ $json.key }}', message: 'Hi', ...batch };
	return {
		resource: 'notification',
		operation: schedule.batched ? 'createBatch' : 'create',
		app: { __rl: true, mode: 'id', value: '11' },
		status: 'draft',
		title: '={{ $json.key }}',
		batchSize: schedule.batchSize,
	};
}

type Claim = 'sent' | 'maybe' | 'not';

/** What the node says became of each item: its output, or the error that stopped it. */
function claims(result: RunResult, itemCount: number): Claim[] {
	if (result.status === 'error') {
		const outcomes = (result.error?.context?.data as any)?.outcomes as
			| Array<{ item: number; outcome: string }>
			| undefined;
		const claimed: Claim[] = Array(itemCount).fill('not');
		for (const { item, outcome } of outcomes ?? []) {
			claimed[item] = outcome.startsWith('may have been')
				? 'maybe'
				: outcome.startsWith('not ')
					? 'not'
					: 'sent';
		}
		return claimed;
	}
	const claimed: Claim[] = [];
	for (const item of result.items) {
		const { json } = item;
		const index = (item.pairedItem as { item: number }).item;
		if (claimed[index] !== undefined) throw new Error(`item ${index} has two outputs`);
		const text = `${json.error ?? ''} ${json.description ?? ''}`;
		claimed[index] =
			json.error === undefined ? 'sent' : /may already have been/.test(text) ? 'maybe' : 'not';
	}
	if (claimed.length !== itemCount || claimed.includes(undefined as never))
		throw new Error(`outputs for ${claimed.length} of ${itemCount} items`);
	return claimed;
}

async function runSchedule(schedule: Schedule): Promise<void> {
	resetSandbox(sandbox());
	const faulted = new Map<SandboxRequest, FaultKind>();
	let seen = 0;
	const stopFaults = onSandboxRequest(sandbox(), (request) => {
		if (!SEND_PATH[schedule.channel].test(request.path)) return;
		const kind = schedule.faults[seen++] ?? 'served';
		faulted.set(request, kind);
		if (kind === 'served') return;
		sandbox().injectFault({
			...sandboxFault(kind),
			method: request.method,
			path: `^${request.path}$`,
		});
	});
	try {
		const result = await runNode({
			parameters: parameters(schedule) as never,
			input: Array.from({ length: schedule.itemCount }, (_, i) => ({
				json: { key: itemKey(schedule.channel, i) },
			})),
			credentials: sandboxCredential(sandbox()),
			continueOnFail: schedule.continueOnFail,
			retryOnFail: schedule.retry
				? { maxTries: schedule.maxTries, waitBetweenTries: 1 }
				: undefined,
		});
		const requestsAtEnd = sandbox().requests.length;
		const claimed = claims(result, schedule.itemCount);
		for (let i = 0; i < schedule.itemCount; i++) {
			const key = itemKey(schedule.channel, i);
			const stored = storedCount(schedule.channel, key);
			const met = [...faulted].filter(([request]) =>
				keysIn(schedule.channel, request.body).includes(key),
			);
			const where = `item ${i}: claimed ${claimed[i]}, stored ${stored} times, its requests met ${met.map(([, kind]) => kind).join(', ') || 'nothing'}`;
			if (stored > 1) throw new Error(`sent twice: ${where}`);
			if (claimed[i] === 'sent' && stored !== 1)
				throw new Error(`claimed sent but not stored: ${where}`);
			if (claimed[i] === 'not' && stored !== 0)
				throw new Error(`claimed not sent but stored: ${where}`);
			const unknownOutcome = met.some(([, kind]) => kind !== 'served' && kind !== '429');
			if (claimed[i] === 'maybe' && !unknownOutcome)
				throw new Error(`"may have been sent" without a lost answer: ${where}`);
		}
		// Nothing leaves once the run is over (a late retry or a timer left behind would).
		await new Promise((resolve) => setTimeout(resolve, 20));
		if (sandbox().requests.length !== requestsAtEnd)
			throw new Error('a request after the run ended');
	} finally {
		stopFaults();
	}
}

describe('batch sends under random fault schedules', () => {
	it(`each item goes out at most once, and is reported as the sandbox saw it (${SCHEDULES} schedules)`, async () => {
		await fc.assert(
			fc.asyncProperty(scheduleArb, async (schedule) => {
				await runSchedule(schedule);
			}),
			{ numRuns: SCHEDULES },
		);
		// A 429 on email or SMS now costs seconds: the sends' window holds a random spread after it
		// and then paces the schedule's later requests to the allowance the refusal left (at most
		// half the limit, 3 to 6 s apart), as it does when another process shares the token. About
		// 110 s on a shared machine; the property's invariants do not depend on it.
	}, 300_000);
});
