import type { INodeType } from 'n8n-workflow';

import { packageNodeTypes, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { declaredParameters } from '../harness/declared';
import { runPoll } from '../harness/poll';
import { commitsOf, dataSourceWith, storedData } from '../sync/fixtures';

const sandbox = useSandbox();

let nodes: INodeType[];
beforeAll(async () => {
	nodes = await packageNodeTypes();
});
const byName = (name: string) => nodes.find((node) => node.description.name === name)!;

/** The sandbox's Departments data source (app 11), which its app token reaches. */
const DEPARTMENTS = { __rl: true, mode: 'list', value: '101' };

describe('a fresh Fliplet node', () => {
	it('opens on resource Entry, operation Get Many', () => {
		const parameters = declaredParameters(byName('fliplet'));
		expect(parameters).toMatchObject({ resource: 'entry', operation: 'getMany' });
	});
});

describe('a fresh Fliplet Trigger', () => {
	it('starts on an event of a data source, not on the audit log an organization token needs', () => {
		const parameters = declaredParameters(byName('flipletTrigger'));
		expect(parameters.event).toBe('newEntry');
	});

	it('"Fetch Test Event" with its defaults and an app token gives the newest entry', async () => {
		const parameters = declaredParameters(byName('flipletTrigger'), { dataSource: DEPARTMENTS });
		const { items, error } = await runPoll({
			parameters,
			credentials: sandboxCredential(sandbox(), TOKENS.app),
			mode: 'manual',
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items![0].json).toMatchObject({ dataSourceId: 101, data: expect.any(Object) });
	});

	it('the audit log event, the old default, fails with that app token (what the default avoids)', async () => {
		const parameters = declaredParameters(byName('flipletTrigger'), {
			event: 'auditLog',
			organization: { __rl: true, mode: 'id', value: '1' },
		});
		const { items, error } = await runPoll({
			parameters,
			credentials: sandboxCredential(sandbox(), TOKENS.app),
			mode: 'manual',
		});
		expect(items).toBeNull();
		expect(error?.message).toBe('The organization 1 is not available to this token.');
	});
});

describe('Entry → Sync in Mirror mode with only the required fields set', () => {
	it('refuses to delete 199 of 200 entries for 1 matching row, and deletes nothing', async () => {
		const rows = Array.from({ length: 200 }, (_, n) => ({ Email: `p${n}@x.io`, N: n }));
		const id = await dataSourceWith(sandbox(), rows);
		const parameters = declaredParameters(byName('fliplet'), {
			resource: 'entry',
			operation: 'sync',
			dataSource: { __rl: true, mode: 'id', value: String(id) },
			keyColumns: 'Email',
			syncMode: 'mirror',
		});
		// What the editor shows under Mirror before anyone changes it.
		expect(parameters).toMatchObject({ maxDeletes: 100, maxDeleteShare: 50, allowEmpty: false });

		const result = await runNode({
			parameters,
			input: [{ json: rows[0] }],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe(
			'Mirror would delete 199 of 200 entries (99.5%); Max Deletes (Entries) is 100 and Max Deletes (% of Entries) is 50%',
		);
		expect(result.error?.description).toContain(
			'raise "Max Deletes (Entries)" to at least 199 and raise "Max Deletes (% of Entries)" to at least 100',
		);
		expect(commitsOf(sandbox())).toHaveLength(0);
		expect(storedData(sandbox(), id)).toHaveLength(200);
	});
});
