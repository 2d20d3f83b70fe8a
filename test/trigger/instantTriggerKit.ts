/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import type { INodeType } from 'n8n-workflow';

import {
	callSandbox,
	FLIPLET_INSTANT_TRIGGER,
	sandboxCredential,
	TOKENS,
	WebhookHost,
	type Sandbox,
} from '../harness';

// The sandbox is plain JavaScript so scripts can run it without a build.
const { hooksSettled } = require('../../sandbox/dataSources/hooks');

export const DEPARTMENTS = 101;
export const SECRET_HEADER = 'x-fliplet-hook-secret';

/** `id@time (ms)` of an entry, by the time field a version counts from. */
export const versionOf = (
	entry: Record<string, unknown>,
	field: 'createdAt' | 'updatedAt' = 'updatedAt',
) => `${entry.id}@${Date.parse(String(entry[field]))}`;

/**
 * A published Instant Trigger on Departments and the writes that ring it: entries inserted and
 * updated through the sandbox's API (so its hooks run, rendered in the sandbox's reading), and
 * calls to the workflow's URL as Fliplet, or anyone who read the hook, makes them.
 */
export function instantTriggerKit(sandbox: () => Sandbox) {
	let host: WebhookHost | undefined;
	const kit = {
		get host(): WebhookHost {
			if (!host) throw new Error('start the host first');
			return host;
		},
		async start(events: string[] = ['insert'], processes: INodeType[] = []) {
			host = new WebhookHost(
				FLIPLET_INSTANT_TRIGGER,
				{ dataSource: { __rl: true, mode: 'id', value: String(DEPARTMENTS) }, events } as never,
				sandboxCredential(sandbox(), TOKENS.org),
				undefined,
				processes,
			);
			await host.start();
			return host;
		},
		async stop() {
			await host?.stop();
			host = undefined;
		},
		/** Until every hook call queued by the sandbox was answered, and what it started ended. */
		async settle() {
			await hooksSettled(sandbox().state);
			await host?.settled();
		},
		async insert(data: Record<string, unknown>) {
			const response = await callSandbox(
				sandbox(),
				'PUT',
				`/v1/data-sources/${DEPARTMENTS}/data`,
				data,
				TOKENS.org,
			);
			expect(response.status).toBe(200);
			await kit.settle();
			return response.body;
		},
		async update(entryId: number, data: Record<string, unknown>) {
			const response = await callSandbox(
				sandbox(),
				'PUT',
				`/v1/data-sources/${DEPARTMENTS}/data/${entryId}`,
				data,
				TOKENS.org,
			);
			expect(response.status).toBe(200);
			await kit.settle();
			return response.body;
		},
		/** The header of a call signed with the activation's secret. */
		signed(): Record<string, string> {
			return { [SECRET_HEADER]: String(kit.host.nodeStaticData.secret) };
		},
		/** A call to the workflow's production URL, as Fliplet (or anyone who read the hook) makes it. */
		callHook(headers: Record<string, string>, body: unknown) {
			return fetch(kit.host.productionUrl, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', ...headers },
				body: JSON.stringify(body),
			});
		},
		/** Every item the workflow's runs received, in order. */
		deliveredEntries(): Array<Record<string, any>> {
			return kit.host.executions.flatMap((execution) =>
				execution.items.map((item) => item.json as Record<string, any>),
			);
		},
		/** The version of every item delivered, in order (repeats show a version run twice). */
		deliveredVersions(field: 'createdAt' | 'updatedAt' = 'updatedAt'): string[] {
			return kit.deliveredEntries().map((entry) => versionOf(entry, field));
		},
	};
	return kit;
}

/**
 * The Instant Trigger as another n8n process loads it: a copy of its modules of its own, so
 * nothing held in one process's memory is seen by the other (they share only the saved static
 * data, see WebhookHost's `processes`).
 */
export function instantTriggerInAnotherProcess(): INodeType {
	let copy: INodeType | undefined;
	jest.isolateModules(() => {
		const {
			FlipletInstantTrigger,
		} = require('../../nodes/FlipletInstantTrigger/FlipletInstantTrigger.node');
		copy = new FlipletInstantTrigger();
	});
	return copy!;
}
