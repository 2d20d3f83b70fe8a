/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { sandboxCredential, TOKENS, type Sandbox } from '../harness';
import { runPoll } from '../harness/poll';

// The sandbox is plain JavaScript so scripts can run it without a build.
const store = require('../../sandbox/dataSources/store');

export const DEPARTMENTS = 101;

/** Polls of the entry trigger on Departments, and another writer's inserts and edits there. */
export function entryTriggerKit(sandbox: () => Sandbox) {
	return {
		/** One scheduled poll; `pollBudgetMs` is the engine's time limit for it (n8n: 5 minutes). */
		poll(
			event: string,
			staticData: Record<string, any> | undefined,
			extra: Record<string, unknown> = {},
			pollBudgetMs?: number,
		) {
			return runPoll({
				parameters: {
					event,
					dataSource: { __rl: true, mode: 'id', value: String(DEPARTMENTS) },
					...extra,
				} as never,
				credentials: sandboxCredential(sandbox(), TOKENS.app),
				staticData,
				mode: 'trigger',
				pollBudgetMs,
			});
		},
		insert(name: string) {
			const state = sandbox().state;
			const entry = store.newEntry(state, { id: DEPARTMENTS }, { Name: name });
			store.appendEntries(state, DEPARTMENTS, [entry]);
			return entry;
		},
		update(entry: Record<string, any>, name: string): Record<string, any> {
			const changed = {
				...entry,
				data: { Name: name },
				updatedAt: new Date(sandbox().state.now()).toISOString(),
			};
			store.replaceEntry(sandbox().state, DEPARTMENTS, changed);
			return changed;
		},
	};
}
