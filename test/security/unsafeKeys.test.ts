// A prototype-pollution key (`__proto__`, or `constructor` holding `prototype`) is refused at any
// depth of a JSON body and in every part of a multipart form: field names and JSON field values.
import {
	findUnsafeFormKey,
	findUnsafeKey,
	unsafeKeyInFieldName,
} from '../../nodes/Fliplet/transport/unsafeKeys';
import { apiRequests, runNode, sandboxCredential, useSandbox, type TestItem } from '../harness';

const sandbox = useSandbox();

const STAFF = { __rl: true, mode: 'id', value: '100' };

/** `{"a": {"a": … {"__proto__": {"polluted": true}}}}`, the key `depth` objects down, as JSON.parse leaves it. */
function nestedProto(depth: number, key = '__proto__'): Record<string, unknown> {
	const payload =
		key === 'constructor' ? '{"prototype": {"polluted": true}}' : '{"polluted": true}';
	return JSON.parse(`${'{"a": '.repeat(depth)}{"${key}": ${payload}}${'}'.repeat(depth)}`);
}

describe('findUnsafeKey', () => {
	it.each([65, 1_000, 200_000])('finds a __proto__ %i objects down, naming its path', (depth) => {
		const value: Record<string, unknown> = {};
		let at = value;
		for (let level = 0; level < depth; level++) at = at.a = {} as Record<string, unknown>;
		at.list = [0, JSON.parse('{"__proto__": {"polluted": true}}')];
		expect(findUnsafeKey(value)).toBe(`${'a.'.repeat(depth)}list[1].__proto__`);
	});

	it('finds constructor.prototype deep down, and passes keys that only look alike', () => {
		expect(findUnsafeKey(nestedProto(100, 'constructor'))).toBe(`${'a.'.repeat(100)}constructor`);
		const lookalikes = JSON.parse(
			'{"constructor": "x", "prototype": {}, "my__proto__": 1, "a": {"constructor": {"name": 1}}}',
		);
		expect(findUnsafeKey(lookalikes)).toBeUndefined();
	});
});

describe('multipart form fields', () => {
	it.each([
		'__proto__',
		'a[__proto__]',
		'a.__proto__.b',
		'data[__proto__][admin]',
		'constructor[prototype]',
		'constructor.prototype.x',
		'a[constructor][prototype]',
	])('the field name %j is unsafe', (name) => {
		expect(unsafeKeyInFieldName(name)).toBe(name);
	});

	it.each(['Name', 'my__proto__', 'constructor', 'prototype', 'a.constructor', 'proto[x]'])(
		'the field name %j is an ordinary column',
		(name) => {
			expect(unsafeKeyInFieldName(name)).toBeUndefined();
		},
	);

	it('a JSON value holding an unsafe key deep down is found; text values are not parsed', () => {
		const deep = JSON.stringify({ list: [{ b: 1 }] }).replace('"b"', '"__proto__"');
		expect(findUnsafeFormKey([{ name: 'Tags', value: deep }])).toBe('Tags.list[0].__proto__');
		expect(findUnsafeFormKey([{ name: 'Note', value: 'about "__proto__": nothing' }])).toBe(
			undefined,
		);
	});

	it.each([
		['a space before the colon', '{"__proto__" : {"polluted": 1}}'],
		['an escaped underscore', '{"\\u005f_proto__": {"polluted": 1}}'],
		['an escaped letter of constructor', '{"c\\u006fnstructor": {"prototype": {"x": 1}}}'],
	])('a JSON value spelling the key with %s is found too', (_how, value) => {
		expect(findUnsafeFormKey([{ name: 'Meta', value }])).toMatch(/^Meta\.(__proto__|constructor)/);
	});
});

describe('through the engine', () => {
	const insert = (item: TestItem, files = false) =>
		runNode({
			parameters: {
				resource: 'entry',
				operation: 'insert',
				dataSource: STAFF,
				columns: { mappingMode: 'autoMapInputData', value: null },
				...(files ? { files: { file: [{ column: 'Photo', binaryPropertyName: 'data' }] } } : {}),
			},
			input: [item],
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});

	const photo = { data: { data: 'aGk=', fileName: 'photo.png', mimeType: 'image/png' } };

	const expectRefused = (result: Awaited<ReturnType<typeof insert>>, path: string) => {
		expect(result.json).toEqual([
			expect.objectContaining({
				error: `The data holds a field "${path}", which is never sent`,
				description: expect.stringContaining('prototype pollution'),
			}),
		]);
		expect(apiRequests(sandbox())).toEqual([]);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	};

	it.each([65, 100, 1_000])(
		'a __proto__ %i objects down in an entry is refused before sending',
		async (depth) => {
			const result = await insert({ json: { Name: 'Deep', Nested: nestedProto(depth) } });
			expectRefused(result, `Nested.${'a.'.repeat(depth)}__proto__`);
		},
	);

	it('a commit holding constructor.prototype 200 objects down is refused before sending', async () => {
		const entries = JSON.stringify([
			{ data: { Name: 'C', Nested: nestedProto(200, 'constructor') } },
		]);
		const result = await runNode({
			parameters: { resource: 'entry', operation: 'commit', dataSource: STAFF, entries },
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		expect(result.json).toEqual([
			expect.objectContaining({
				error: expect.stringMatching(/constructor", which is never sent/),
			}),
		]);
		expect(apiRequests(sandbox())).toEqual([]);
	});

	it.each(['__proto__', 'a[__proto__]', 'constructor[prototype]'])(
		'an insert with files refuses a column named %j (a multipart field)',
		async (column) => {
			const json = JSON.parse(`{"Name": "With photo", ${JSON.stringify(column)}: "x"}`);
			const result = await insert({ json, binary: photo }, true);
			expectRefused(result, column);
		},
	);

	it('an insert with files refuses a column holding __proto__ deep in its object', async () => {
		const result = await insert(
			{ json: { Name: 'P', Meta: nestedProto(80) }, binary: photo },
			true,
		);
		expectRefused(result, `Meta.${'a.'.repeat(80)}__proto__`);
	});

	it('an insert with files refuses a text column whose JSON spells __proto__ with an escape', async () => {
		const result = await insert(
			{ json: { Name: 'E', Meta: '{"\\u005f_proto__": {"polluted": true}}' }, binary: photo },
			true,
		);
		expectRefused(result, 'Meta.__proto__');
	});

	it('an insert with files still sends ordinary columns, objects as JSON', async () => {
		const result = await insert(
			{ json: { Name: 'Ann', Meta: { constructor: 'x', tags: ['a'] } }, binary: photo },
			true,
		);
		expect(result.json[0]).toMatchObject({
			data: { Name: 'Ann', Meta: '{"constructor":"x","tags":["a"]}' },
		});
		expect(apiRequests(sandbox(), /\/data$/)).toHaveLength(1);
	});
});

describe('a binary property named after a member every object has', () => {
	const WAV = Buffer.concat([Buffer.from('RIFF0000WAVEfmt '), Buffer.alloc(64)]).toString('base64');
	const item: TestItem = {
		json: {},
		binary: { data: { data: WAV, fileName: 'a.wav', mimeType: 'audio/wav' } },
	};
	const APP = { __rl: true, mode: 'id', value: '11' };

	it.each([
		[
			'AI → Transcribe Audio',
			{ resource: 'ai', operation: 'transcribeAudio', app: APP, binaryPropertyName: 'v' },
			/^The item has no binary property "(__proto__|constructor|toString)" \(Input Binary Field\)$/,
		],
		[
			'Entry → Insert with files',
			{
				resource: 'entry',
				operation: 'insert',
				dataSource: STAFF,
				columns: { mappingMode: 'defineBelow', value: { Name: 'x' } },
				files: { file: [{ column: 'Photo', binaryPropertyName: 'v' }] },
			},
			/^The item has no binary property "(__proto__|constructor|toString)" \(Files: Input Binary Field\)$/,
		],
		[
			'Email → Send',
			{
				resource: 'email',
				operation: 'send',
				to: 'ann@example.com',
				subject: 'Hi',
				options: { binaryProperties: 'v' },
			},
			/no binary property "(__proto__|constructor|toString)" for "Attachments \(Binary Properties\)"$/,
		],
	])('is refused clearly by %s, never read as a file', async (_name, parameters, message) => {
		const named = (name: string) =>
			JSON.parse(JSON.stringify(parameters).replaceAll('"v"', `"${name}"`));
		for (const name of ['__proto__', 'constructor', 'toString']) {
			const result = await runNode({
				parameters: named(name),
				input: [item],
				credentials: sandboxCredential(sandbox()),
				continueOnFail: true,
			});
			expect(result.json).toEqual([
				expect.objectContaining({
					error: expect.stringMatching(message),
					description: expect.stringMatching(/binary propert(y|ies) this item has/),
				}),
			]);
		}
		expect(apiRequests(sandbox())).toEqual([]);
	});
});
