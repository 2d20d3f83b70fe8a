import type {
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';

import { packageNodeTypes } from '../harness';
import { declaredParameters, shownFields, shownOptions } from '../harness/declared';

let nodes: INodeType[];
beforeAll(async () => {
	nodes = await packageNodeTypes();
});
const byName = (name: string) => nodes.find((node) => node.description.name === name)!;
const fliplet = () => byName('fliplet');

const names = (properties: INodeProperties[]) => properties.map((property) => property.name);

/** The values of an options field of the node, for the resource and operation it serves. */
function choices(type: INodeType, name: string, resource?: string): string[] {
	const field = type.description.properties.find(
		(property) =>
			property.name === name &&
			(!resource ||
				(property.displayOptions?.show?.resource as string[] | undefined)?.includes(resource)),
	)!;
	return (field.options as INodePropertyOptions[]).map((option) => String(option.value));
}

/** The form of Entry → operation as the editor shows it, from the declared defaults. */
function entryForm(operation: string, chosen: INodeParameters = {}) {
	const parameters = declaredParameters(fliplet(), { resource: 'entry', operation, ...chosen });
	const fields = shownFields(fliplet(), parameters);
	const collection = (name: string) => {
		const field = fields.find((property) => property.name === name);
		return field ? names(shownOptions(fliplet(), parameters, field)) : undefined;
	};
	return { parameters, fields: names(fields), collection };
}

/** Fields that serve every operation of their resource, beside its operation picker. */
const SHARED_BY_RESOURCE = ['notification.app'];

describe('each form shows only the fields of its own operation', () => {
	it('every resource and operation of Fliplet, built from the declared defaults', () => {
		const resources = choices(fliplet(), 'resource');
		let forms = 0;
		for (const resource of resources) {
			for (const operation of choices(fliplet(), 'operation', resource)) {
				const parameters = declaredParameters(fliplet(), { resource, operation });
				expect([resource, parameters.operation]).toEqual([resource, operation]);
				const strangers = shownFields(fliplet(), parameters).filter((field) => {
					if (field.name === 'resource') return false;
					const show = field.displayOptions?.show ?? {};
					const serves = (key: string, value: string) =>
						(show[key] as string[] | undefined)?.includes(value) ?? false;
					// Without an operation rule a field serves every operation of its resource: only the
					// operation picker and these may (one that lost its rule would show on every form).
					const everyOperation =
						show.operation === undefined &&
						(field.name === 'operation' ||
							SHARED_BY_RESOURCE.includes(`${resource}.${field.name}`));
					return (
						!serves('resource', resource) || !(everyOperation || serves('operation', operation))
					);
				});
				expect({ resource, operation, strangers: names(strangers) }).toEqual({
					resource,
					operation,
					strangers: [],
				});
				forms++;
			}
		}
		expect(forms).toBeGreaterThanOrEqual(45);
	});

	it('every event of the Fliplet Trigger shows only its own fields and the shared ones', () => {
		const trigger = byName('flipletTrigger');
		const shared = ['event', 'startFrom', 'maxEventsPerPoll'];
		for (const event of choices(trigger, 'event')) {
			const fields = shownFields(trigger, declaredParameters(trigger, { event }));
			const strangers = fields.filter(
				(field) =>
					!shared.includes(field.name) &&
					!(field.displayOptions?.show?.event as string[] | undefined)?.includes(event),
			);
			expect({ event, strangers: names(strangers) }).toEqual({ event, strangers: [] });
		}
	});
});

describe('Entry → Sync shows what applies to its mode', () => {
	const MIRROR_ONLY = ['allowEmpty', 'maxDeletes', 'maxDeleteShare'];
	const UPDATING = ['timestampColumn', 'updateAll', 'updateStyle'];

	it.each(['insertAndUpdate', 'mirror', 'insertOnly', 'updateOnly'])('%s', (syncMode) => {
		const form = entryForm('sync', { syncMode });
		const options = form.collection('syncOptions')!;
		const mirror = syncMode === 'mirror';
		for (const field of MIRROR_ONLY)
			expect([field, form.fields.includes(field)]).toEqual([field, mirror]);
		for (const option of UPDATING)
			expect([option, options.includes(option)]).toEqual([option, syncMode !== 'insertOnly']);
		// The limits live in the fields: the options they had before are kept, never offered.
		expect(options).not.toContain('maxDeletes');
		expect(options).not.toContain('maxDeleteShare');
		expect(options).toEqual(expect.arrayContaining(['chunkSize', 'dryRun', 'runHooks']));
	});

	it('the mode list is the one the test walks', () => {
		expect(choices(fliplet(), 'syncMode').sort()).toEqual(
			['insertAndUpdate', 'insertOnly', 'mirror', 'updateOnly'].sort(),
		);
	});
});

describe('Entry → Create and Update show what applies', () => {
	it('Update: Files only with Merge Columns and Run Update Hooks on (the only update that carries files)', () => {
		const cases: Array<[INodeParameters, boolean]> = [
			[{}, true],
			[{ updateMode: 'replace' }, false],
			[{ runHooks: false }, false],
			[{ updateMode: 'replace', runHooks: false }, false],
		];
		for (const [chosen, files] of cases) {
			expect([chosen, entryForm('update', chosen).fields.includes('files')]).toEqual([
				chosen,
				files,
			]);
		}
	});

	it.each(['insert', 'update', 'upsert'])(
		'%s: Ignore Fields only with Map Automatically',
		(operation) => {
			const manual = entryForm(operation);
			expect(manual.parameters.columns).toMatchObject({ mappingMode: 'defineBelow' });
			expect(manual.collection('options') ?? []).not.toContain('ignoreFields');
			const auto = entryForm(operation, {
				columns: { mappingMode: 'autoMapInputData', value: null },
			});
			expect(auto.collection('options')).toContain('ignoreFields');
		},
	);

	it('Update by Columns to Match On: no Entry ID and no Files (they need the entry ID)', () => {
		const form = entryForm('update', { matchBy: 'columns' });
		expect(form.fields).not.toContain('entryId');
		expect(form.fields).not.toContain('files');
		expect(form.fields).toContain('columns');
	});
});

/** Every text a field shows (description, hint, option texts), with its field's name. */
function fieldTexts(properties: INodeProperties[]): Array<[string, string]> {
	return properties.flatMap((property): Array<[string, string]> => {
		const own = [property.description, property.hint, property.displayName]
			.filter((text): text is string => typeof text === 'string')
			.map((text): [string, string] => [property.name, text]);
		const inner = (
			(property.options ?? []) as Array<INodeProperties | INodePropertyOptions>
		).flatMap(
			(option): Array<[string, string]> =>
				'type' in option
					? fieldTexts([option])
					: option.description
						? [[`${property.name}: ${option.name}`, option.description]]
						: [],
		);
		return [...own, ...inner];
	});
}

/** Words of the API's wire format that tell a user nothing in an editor's help text. */
const INTERNALS =
	/\bcommits? with\b|\bextend\b|runHooks|\bPUT\b|\bPOST\b|multipart|\bendpoint\b|returnEntries/;

describe('field texts say what happens, not how it is sent', () => {
	it.each(['insert', 'update', 'upsert', 'sync', 'import'])('Entry → %s', (operation) => {
		const properties = fliplet().description.properties.filter((property) =>
			(property.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
		);
		const found = fieldTexts(properties).filter(([, text]) => INTERNALS.test(text));
		expect(found).toEqual([]);
	});
});
