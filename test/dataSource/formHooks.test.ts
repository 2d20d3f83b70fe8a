import type { INodeProperties } from 'n8n-workflow';

import { FORM_EMAILS_NOT_SENT } from '../../nodes/Fliplet/actions/entry/entry.descriptions';
import {
	callSandbox,
	FLIPLET_NODE,
	nodeTypes,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';

// The form builder's email hooks carry `triggers: [formUuid]` and fire for that form's own saves
// (forms write with `source: formUuid`); the data source's other hooks fire for every write that
// runs hooks. n8n's writes name no form: the help texts say which hooks they run.
const sandbox = useSandbox();
const STAFF = 100;
const staff = { __rl: true, mode: 'id', value: String(STAFF) };
const FORM = 'e3b0c442-form-uuid';

const email = (subject: string, runOn: string[], triggers?: string[]) => ({
	type: 'email',
	runOn,
	payload: { to: [{ email: 'hr@example.com', type: 'to' }], subject },
	...(triggers ? { triggers } : {}),
});

async function setHooks() {
	const answer = await callSandbox(
		sandbox(),
		'PUT',
		`/v1/data-sources/${STAFF}`,
		{
			hooks: [
				email('Data source: {{{Name}}}', ['insert', 'update']),
				email('Form submitted: {{{Name}}}', ['insert'], [FORM]),
				email('Form edited: {{{Name}}}', ['update'], [FORM]),
			],
		},
		TOKENS.org,
	);
	expect(answer.status).toBe(200);
}

const sentSubjects = () =>
	(sandbox().state.hookLog as Array<{ type: string; payload: { subject: string } }>)
		.filter((run) => run.type === 'email')
		.map((run) => run.payload.subject);

const write = (parameters: Record<string, unknown>, input = [{ json: { Name: 'Gail' } }]) =>
	runNode({
		parameters: { resource: 'entry', dataSource: staff, ...parameters },
		input,
		credentials: sandboxCredential(sandbox()),
	});

const autoMap = { mappingMode: 'autoMapInputData', value: null };

describe("n8n's writes run the data source's hooks, not a form's own emails", () => {
	it('Create: the data source hook runs, the form-submitted email does not', async () => {
		await setHooks();
		const result = await write({ operation: 'insert', columns: autoMap });
		expect(result.error).toBeUndefined();
		expect(sentSubjects()).toEqual(['Data source: Gail']);
	});

	it('Update with Run Update Hooks: the data source hook runs, the form-edited email does not', async () => {
		await setHooks();
		const result = await write({ operation: 'update', entryId: '201', columns: autoMap });
		expect(result.error).toBeUndefined();
		expect(sentSubjects()).toEqual(['Data source: Gail']);
	});

	it('Import and Sync with their hooks on: likewise', async () => {
		await setHooks();
		const imported = await write({ operation: 'import', options: { runHooks: true } });
		expect(imported.error).toBeUndefined();
		const synced = await write(
			{ operation: 'sync', keyColumns: 'Name', syncOptions: { runHooks: ['insert', 'update'] } },
			[{ json: { Name: 'Hal' } }],
		);
		expect(synced.error).toBeUndefined();
		expect(sentSubjects()).toEqual(['Data source: Gail', 'Data source: Hal']);
	});
});

describe('the hook help texts say what a write runs and what it does not', () => {
	const properties = () => nodeTypes.getByName(FLIPLET_NODE).description.properties;
	/** The field or option named `name` of Entry → operation, searched through collections. */
	function field(operation: string, name: string): INodeProperties {
		const find = (list: INodeProperties[]): INodeProperties | undefined => {
			for (const item of list) {
				if (item.name === name) return item;
				const inner = item.options as INodeProperties[] | undefined;
				if (Array.isArray(inner) && inner[0] && 'type' in inner[0]) {
					const found = find(inner);
					if (found) return found;
				}
			}
			return undefined;
		};
		const own = properties().filter((property) =>
			(property.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
		);
		return find(own)!;
	}

	it.each([
		['update', 'runHooks'],
		['upsert', 'runHooks'],
		['import', 'runHooks'],
		['sync', 'runHooks'],
		['commit', 'runHooks'],
	])('Entry → %s, %s', (operation, name) => {
		const description = field(operation, name).description ?? '';
		expect(description).toMatch(/web calls .*Instant Trigger.*emails, SMS, pushes/);
		expect(description).toContain(FORM_EMAILS_NOT_SENT);
	});

	it('the text of Entry → Create says its insert hooks run', () => {
		const operation = properties().find(
			(property) =>
				property.name === 'operation' &&
				(property.displayOptions?.show?.resource as string[] | undefined)?.includes('entry'),
		)!;
		const create = (operation.options as Array<{ value: string; description: string }>).find(
			(option) => option.value === 'insert',
		)!;
		expect(create.description).toMatch(/insert hooks run/);
	});
});
