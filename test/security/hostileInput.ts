// The hostile-input test, shared by the two files that run it (see hostileInput.*.test.ts).
//
// Every text field of every operation of the Fliplet node, read from the node's description, gets
// hostile values the way an expression, an upstream node or an AI agent's $fromAI would put them
// there: one input item each. Each value is refused with a clear error or has a neutral result,
// within a time budget, and nothing reaches another address or another record:
// - every request the sandbox received has the shape a harmless value gives (the same path, with
//   the hostile value whole in one segment where the harmless one was);
// - the records the run changed are among those a harmless value changes;
// - no body holds an unsafe key, no email head a line break, and nothing polluted a prototype.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { findUnsafeKey, unsafeKeyInFieldName } from '../../nodes/Fliplet/transport/unsafeKeys';
import {
	createSandbox,
	runNode,
	TOKENS,
	type RunResult,
	type Sandbox,
	type SandboxRequest,
	type TestItem,
} from '../harness';
import {
	defaultOf,
	isShown,
	nodeOperations,
	nodeTextFields,
	valueAt,
	withField,
	type TextField,
} from './nodeFields';
import { OPERATION_CASES, type OperationCase } from './operationCases';
import { HOSTILE_VALUES } from './hostileValues';
import { timedAsync } from './timing';

/** A run of one field, items and all: well within seconds, even on a busy machine. */
const BUDGET_MS = 30_000;
/** AI requests of one app are paced to 10 a minute: no run (with its harmless one) sends more. */
const AI_VALUES_PER_RUN = 6;

const expression = '={{ $json.v }}';

/** The resources one file runs; the other runs the rest. */
export const DATA_RESOURCES = ['dataSource', 'dataSourceVersion', 'entry'];

/** What an internal failure says, as opposed to an error that tells the user what to fix. */
const INTERNAL_ERROR =
	/Cannot read prop|is not a function|is not iterable|Maximum call stack|undefined \(reading|Unexpected token|\[object Object\]/;

/** The parameters that put `value` (an expression, usually) into the field. */
function parametersWith(field: TextField, value: string): INodeParameters {
	const { parameters } = OPERATION_CASES[field.operation];
	const [resource, operation] = field.operation.split('.');
	const inField = field.mode ? { __rl: true, mode: field.mode, value } : value;
	return withField({ resource, operation, ...parameters }, field, inField);
}

/** Where the record a locator names By Name is kept in the sandbox. */
const RECORDS_NAMED_BY: Record<string, string> = {
	app: 'apps',
	dataSource: 'dataSources',
	dataSourceId: 'dataSources',
	organization: 'organizations',
};

/** A value that does no harm in the field: what the case holds, or the record's name By Name. */
function harmlessValue(field: TextField, sandbox: Sandbox): string | undefined {
	const { parameters } = OPERATION_CASES[field.operation];
	// A field the case does not show (another format, say) has its own harmless default.
	if (!isShown(parameters, field) && defaultOf(field)) return defaultOf(field);
	const held = valueAt(parameters, field);
	const value = (held as IDataObject | undefined)?.__rl ? (held as IDataObject).value : held;
	if (typeof value !== 'string') return undefined;
	if (field.mode !== 'name' && field.mode !== 'url') return value;
	const property = field.steps.at(-1)!.property.name;
	const records = sandbox.state[RECORDS_NAMED_BY[property]] ?? [];
	const id = Number(value);
	const named = records.find((record: IDataObject) =>
		[record.id, record.productionAppId].includes(id),
	);
	if (field.mode === 'name') return named?.name;
	// By URL: an app's Studio address (it holds the draft's id), a data source's API address.
	return property === 'app'
		? `https://studio.fliplet.com/apps/${String(named?.id ?? id)}/edit`
		: `https://api.fliplet.com/v1/data-sources/${value}`;
}

function itemsFor(testCase: OperationCase, values: string[]): TestItem[] {
	return values.map((v, index) => {
		const item = testCase.item ? testCase.item(index) : { json: {} };
		return { ...item, json: { ...item.json, v } };
	});
}

async function run(sandbox: Sandbox, field: TextField, values: string[], value = expression) {
	const testCase = OPERATION_CASES[field.operation];
	const token = TOKENS[testCase.token ?? 'app'];
	return await runNode({
		parameters: parametersWith(field, value),
		input: itemsFor(testCase, values),
		credentials: {
			flipletApi: { accessToken: token, region: 'custom', baseUrl: sandbox.url },
			twilioForFlipletApi: { accountSid: 'AC0123456789', authToken: 'twilio-secret' },
		},
		continueOnFail: true,
	});
}

/* ---- what a run left behind ---- */

const segmentsOf = (request: SandboxRequest) =>
	request.path.split('/').map((segment) => {
		try {
			return decodeURIComponent(segment);
		} catch {
			return segment;
		}
	});

/**
 * Whether a request of the hostile run has the shape of one the harmless run sent: the same
 * method and segments, where a segment may differ only by holding a hostile value whole instead
 * of the harmless value, or another record id.
 */
function sameShape(
	request: SandboxRequest,
	harmless: SandboxRequest,
	hostile: Set<string>,
	harmlessValue: string | undefined,
) {
	const got = segmentsOf(request);
	const want = segmentsOf(harmless);
	return (
		request.method === harmless.method &&
		got.length === want.length &&
		got.every(
			(segment, index) =>
				segment === want[index] ||
				(/^\d+$/.test(segment) && /^\d+$/.test(want[index])) ||
				(hostile.has(segment) && want[index] === harmlessValue?.trim()),
		)
	);
}

/** The sandbox's state as plain JSON (its Maps as objects), to compare with later. */
const snapshot = (sandbox: Sandbox): IDataObject =>
	JSON.parse(
		JSON.stringify(sandbox.state, (_key, value) =>
			value instanceof Map
				? Object.fromEntries(value)
				: typeof value === 'function'
					? undefined
					: value,
		),
	);

/**
 * Which records a run changed, named by what they belong to: a record of a list by its data source
 * (or its own id), an entry of a keyed table by its key; one created in the run (or belonging to a
 * data source created in it) is "new", so two runs that create records compare equal.
 */
function footprint(before: IDataObject, after: IDataObject): Set<string> {
	const changed = new Set<string>();
	const dataSources = new Set(((before.dataSources as IDataObject[]) ?? []).map((r) => r.id));
	const ownerOf = (record: IDataObject, known: Set<unknown>) =>
		record?.dataSourceId != null
			? `ds:${dataSources.has(record.dataSourceId) ? record.dataSourceId : 'new'}`
			: known.has(record?.id)
				? `id:${record.id}`
				: 'new';
	for (const [area, now] of Object.entries(after)) {
		const old = before[area];
		if (area === 'nextId' || JSON.stringify(old) === JSON.stringify(now)) continue;
		if (Array.isArray(now)) {
			const oldRecords = (old as IDataObject[]) ?? [];
			const known = new Set(oldRecords.map((record) => record?.id));
			const texts = (records: IDataObject[]) => new Set(records.map((r) => JSON.stringify(r)));
			const [oldTexts, nowTexts] = [texts(oldRecords), texts(now as IDataObject[])];
			for (const record of now as IDataObject[]) {
				if (!oldTexts.has(JSON.stringify(record))) changed.add(`${area}:${ownerOf(record, known)}`);
			}
			for (const record of oldRecords) {
				if (!nowTexts.has(JSON.stringify(record))) changed.add(`${area}:${ownerOf(record, known)}`);
			}
		} else if (isRecord(old) && isRecord(now)) {
			for (const key of new Set([...Object.keys(old), ...Object.keys(now)])) {
				if (JSON.stringify(old[key]) === JSON.stringify(now[key])) continue;
				const existed = key in old || dataSources.has(Number(key));
				changed.add(`${area}:${existed ? key : 'new'}`);
			}
		} else {
			changed.add(area);
		}
	}
	return changed;
}

const isRecord = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Texts of an email that become lines of its head. */
function emailHeadTexts(email: IDataObject): string[] {
	const texts = [email.subject, email.from_name];
	for (const recipient of (email.to as IDataObject[]) ?? []) texts.push(recipient.name);
	for (const attachment of (email.attachments as IDataObject[]) ?? []) {
		texts.push(attachment.name, attachment.type);
	}
	texts.push(...Object.values((email.headers as IDataObject) ?? {}));
	return texts.filter((text): text is string => typeof text === 'string');
}

function unsafeKeysSent(requests: SandboxRequest[]): string[] {
	return requests.flatMap((request) => {
		const body = request.body as IDataObject | undefined;
		const fields = (body?.multipart as IDataObject | undefined)?.fields as IDataObject | undefined;
		if (fields) {
			return Object.keys(fields).filter((name) => unsafeKeyInFieldName(name) !== undefined);
		}
		const found = findUnsafeKey(body);
		return found === undefined ? [] : [`${request.method} ${request.path}: ${found}`];
	});
}

function emailHeadLineBreaks(requests: SandboxRequest[]): string[] {
	return requests
		.filter((request) => request.path.startsWith('/v1/communicate/email'))
		.flatMap((request) => {
			const body = request.body as IDataObject;
			const emails = (body.emails as IDataObject[] | undefined) ?? [body];
			return emails.flatMap(emailHeadTexts).filter((text) => /[\r\n]/.test(text));
		});
}

/** The outcome of each item: its error when refused, otherwise "ok". */
function outcomes(result: RunResult, values: string[]) {
	return values.map((value, index) => {
		const paired = result.items.filter(
			(item) => ([item.pairedItem].flat()[0] as { item?: number } | undefined)?.item === index,
		);
		const error = paired.find((item) => item.json.error !== undefined)?.json;
		return {
			value: value.length > 40 ? `${value.slice(0, 20)}… (${value.length} characters)` : value,
			error: error ? String(error.error) : undefined,
			description: error?.description,
		};
	});
}

/** What a run with a harmless value sent and changed, per parameters (the same for every chunk). */
const harmlessOutcomes = new Map<string, { requests: SandboxRequest[]; footprint: Set<string> }>();

async function harmlessOutcome(sandbox: Sandbox, field: TextField, harmless: string | undefined) {
	const value = harmless ?? expression;
	const key = JSON.stringify([parametersWith(field, value), harmless]);
	const cached = harmlessOutcomes.get(key);
	if (cached) return cached;
	await OPERATION_CASES[field.operation].setup?.(sandbox);
	const before = snapshot(sandbox);
	const start = sandbox.requests.length;
	const result = await run(sandbox, field, [harmless ?? ''], value);
	expect({ harmless, error: result.error?.message, items: result.json }).toEqual({
		harmless,
		error: undefined,
		items: expect.not.arrayContaining([expect.objectContaining({ error: expect.anything() })]),
	});
	const outcome = {
		requests: sandbox.requests.slice(start),
		footprint: footprint(before, snapshot(sandbox)),
	};
	harmlessOutcomes.set(key, outcome);
	sandbox.reset();
	return outcome;
}

/* ---- the test ---- */

/**
 * The hostile-input test of the fields of the operations `resources` picks (two test files share
 * the operations, so jest runs them side by side).
 */
export function describeHostileInput(title: string, resources: (resource: string) => boolean) {
	describe(title, () => {
		const fields = nodeTextFields().filter((field) => resources(field.operation.split('.')[0]));

		it('covers every operation of these resources', () => {
			const operations = nodeOperations().filter((operation) => resources(operation.split('.')[0]));
			expect(operations.filter((operation) => !OPERATION_CASES[operation])).toEqual([]);
			expect(fields.length).toBeGreaterThan(50);
		});

		const runs = fields.flatMap((field) => {
			const size = field.operation.startsWith('ai.') ? AI_VALUES_PER_RUN : HOSTILE_VALUES.length;
			const chunks: string[][] = [];
			for (let start = 0; start < HOSTILE_VALUES.length; start += size) {
				chunks.push(HOSTILE_VALUES.slice(start, start + size));
			}
			const name = `${field.operation} ${field.path}${field.mode ? ` (${field.mode})` : ''}`;
			return chunks.map((values, chunk) => [
				chunks.length > 1 ? `${name} [${chunk + 1}/${chunks.length}]` : name,
				field,
				values,
			]) as Array<[string, TextField, string[]]>;
		});

		it.each(runs)('%s', async (_name, field, values) => {
			// A sandbox of its own: a new address, so the pacing of one run never slows the next.
			const sandbox = createSandbox();
			await sandbox.start();
			try {
				const { setup } = OPERATION_CASES[field.operation];
				const harmless = harmlessValue(field, sandbox);
				const known = await harmlessOutcome(sandbox, field, harmless);
				await setup?.(sandbox);
				const setupRequests = sandbox.requests.length;
				const before = snapshot(sandbox);
				const { result, ms } = await timedAsync(() => run(sandbox, field, values));
				const requests = sandbox.requests.slice(setupRequests);

				expect({ ms: ms < BUDGET_MS, error: result.error?.message }).toEqual({
					ms: true,
					error: undefined,
				});
				for (const outcome of outcomes(result, values)) {
					if (outcome.error === undefined) continue;
					expect(outcome).toEqual({
						...outcome,
						error: expect.not.stringMatching(INTERNAL_ERROR),
						description: expect.stringMatching(/\w/),
					});
				}
				const hostile = new Set(values.flatMap((value) => [value, value.trim()]));
				const elsewhere = requests.filter(
					(request) => !known.requests.some((sent) => sameShape(request, sent, hostile, harmless)),
				);
				expect(elsewhere.map((request) => `${request.method} ${request.path}`)).toEqual([]);
				const written = [...footprint(before, snapshot(sandbox))].filter(
					(record) => !known.footprint.has(record),
				);
				expect(written).toEqual([]);
				expect(unsafeKeysSent(requests)).toEqual([]);
				expect(emailHeadLineBreaks(requests)).toEqual([]);
				expect(({} as IDataObject).polluted).toBeUndefined();
			} finally {
				await sandbox.stop();
			}
		});
	});
}
