import {
	apiRequests,
	callSandbox,
	runNode,
	sandboxCredential,
	TOKENS,
	useSandbox,
} from '../harness';
import { formEntry, PHOTO, RECEIPT, STAFF, STAFF_LOCATOR } from './fileFixtures';

// Entry → Update with files: the multipart single-entry update, as the platform's JS API sends an
// update with FormData; it runs the data source's update hooks, as Update always does by default.
const sandbox = useSandbox();

const stored = (id: number) =>
	sandbox().state.entries.find((entry: { id: number }) => entry.id === id).data;
const updateRuns = () =>
	(sandbox().state.hookLog as Array<Record<string, unknown>>).filter(
		(run) => run.event === 'update',
	);

async function setUpdateHook() {
	const hooks = [
		{
			type: 'email',
			runOn: ['update'],
			payload: { to: [{ email: 'hr@example.com', type: 'to' }], subject: 'Changed: {{{Name}}}' },
		},
	];
	const answer = await callSandbox(
		sandbox(),
		'PUT',
		`/v1/data-sources/${STAFF}`,
		{ hooks },
		TOKENS.org,
	);
	expect(answer.status).toBe(200);
}

const withPhoto = (bytes: Buffer, name = 'new.png') => [
	{
		json: {},
		binary: { picture: { data: bytes.toString('base64'), fileName: name, mimeType: 'image/png' } },
	},
];

function update(
	entryId: number,
	parameters: Record<string, unknown> = {},
	input = withPhoto(RECEIPT),
) {
	return runNode({
		parameters: {
			resource: 'entry',
			operation: 'update',
			dataSource: STAFF_LOCATOR,
			entryId: String(entryId),
			columns: { mappingMode: 'defineBelow', value: { Name: 'Chair (repaired)' } },
			files: { file: [{ column: 'Photo', binaryPropertyName: 'picture' }] },
			...parameters,
		},
		input,
		credentials: sandboxCredential(sandbox()),
	});
}

describe('Entry → Update with files', () => {
	it("uploads the file onto the entry in one multipart update, replacing the form's list, and runs the update hooks once", async () => {
		await setUpdateHook();
		const entry = await formEntry(sandbox(), { Name: 'Chair', Room: '4B' }, [
			{ column: 'Photo', name: 'a.png', type: 'image/png', bytes: PHOTO, list: true },
			{ column: 'Photo', name: 'b.png', type: 'image/png', bytes: PHOTO, list: true },
		]);
		expect(entry.data.Photo).toHaveLength(2);

		const result = await update(entry.id);

		expect(result.error).toBeUndefined();
		const requests = apiRequests(sandbox(), /^\/v1\/data-sources\/100\/data\/\d+$/);
		expect(requests.map((request) => request.method)).toEqual(['PUT']);
		const [request] = requests;
		expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
		expect(request.body.multipart.fields).toEqual({
			Name: 'Chair (repaired)',
			_flSchema: JSON.stringify({ Photo: { append: false } }),
		});
		expect(request.body.multipart.files).toHaveLength(1);
		expect(request.body.multipart.files[0]).toMatchObject({
			name: 'Photo',
			fileName: 'new.png',
			mimeType: 'image/png',
		});
		const data = stored(entry.id);
		expect(data).toEqual({
			Name: 'Chair (repaired)',
			Room: '4B',
			Photo: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/apps\/11\//),
			PhotoMediaFileId: expect.any(Number),
		});
		expect(sandbox().state.media.get(data.PhotoMediaFileId).data.equals(RECEIPT)).toBe(true);
		expect(result.json[0]).toMatchObject({ id: entry.id, data });
		expect(updateRuns()).toEqual([expect.objectContaining({ type: 'email', entryId: entry.id })]);
	});

	it('takes a file with no column values', async () => {
		const entry = await formEntry(sandbox(), { Name: 'Lamp' }, []);
		const result = await update(entry.id, {
			columns: { mappingMode: 'defineBelow', value: {} },
		});
		expect(result.error).toBeUndefined();
		expect(stored(entry.id)).toEqual({
			Name: 'Lamp',
			Photo: expect.any(String),
			PhotoMediaFileId: expect.any(Number),
		});
	});

	// The editor shows Files only with Merge Columns and Run Update Hooks on; set by an expression,
	// those fields are known only when the item runs, and the node refuses there.
	it.each([
		['Replace Entry', { updateMode: '={{ "replace" }}' }],
		['Run Update Hooks off', { runHooks: '={{ false }}' }],
	])(
		'refuses files with %s (from an expression) before sending anything: a commit carries no files',
		async (_name, mode) => {
			const entry = await formEntry(sandbox(), { Name: 'Desk' }, []);
			sandbox().requests.length = 0;
			const result = await update(entry.id, mode);
			expect(result.error?.message).toBe(
				'Files can only be uploaded with Merge Columns and Run Update Hooks on',
			);
			expect(result.error?.description).toMatch(/Media File → Upload/);
			expect(sandbox().requests).toEqual([]);
			expect(stored(entry.id)).toEqual({ Name: 'Desk' });
		},
	);

	it('refuses a column given two files, and a column named _flSchema, before sending anything', async () => {
		const entry = await formEntry(sandbox(), { Name: 'Shelf' }, []);
		sandbox().requests.length = 0;
		const twice = await update(entry.id, {
			files: {
				file: [
					{ column: 'Photo', binaryPropertyName: 'picture' },
					{ column: 'Photo', binaryPropertyName: 'picture' },
				],
			},
		});
		expect(twice.error?.message).toBe('The column "Photo" is given two files');
		const schema = await update(entry.id, {
			columns: { mappingMode: 'defineBelow', value: { _flSchema: '{}' } },
		});
		expect(schema.error?.message).toBe('A column named _flSchema cannot be written with files');
		expect(sandbox().requests).toEqual([]);
	});

	it('is not sent again after the answer was lost: the update may have run its hooks', async () => {
		await setUpdateHook();
		const entry = await formEntry(sandbox(), { Name: 'Bin' }, []);
		sandbox().injectFault({ mode: 'drop-after', method: 'PUT', path: `/data/${entry.id}$` });
		const result = await update(entry.id);
		expect(result.error?.description).toMatch(/may already have been processed/);
		expect(apiRequests(sandbox(), new RegExp(`/data/${entry.id}$`))).toHaveLength(1);
		expect(updateRuns()).toHaveLength(1);
	});
});
