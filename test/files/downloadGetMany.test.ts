import { callSandbox, runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { formEntry, PHOTO, RECEIPT, STAFF_LOCATOR } from './fileFixtures';

// Entry → Get Many with Download Files: every entry's files, each entry its own item.
const sandbox = useSandbox();

const getManyWithFiles = (extra: Record<string, unknown> = {}) => ({
	resource: 'entry',
	operation: 'getMany',
	dataSource: STAFF_LOCATOR,
	queryMode: 'simple',
	filters: { conditions: [{ column: 'Kind', condition: '$eq', value: 'report' }] },
	returnAll: true,
	downloadFiles: true,
	...extra,
});

/** Three reports of a form; the second one's photo is made private after it was stored. */
async function threeReports() {
	const first = await formEntry(sandbox(), { Kind: 'report', Name: 'one' }, [
		{ column: 'Photo', name: 'one.png', type: 'image/png', bytes: PHOTO },
	]);
	const second = await formEntry(sandbox(), { Kind: 'report', Name: 'two' }, [
		{ column: 'Photo', name: 'two.png', type: 'image/png', bytes: RECEIPT },
	]);
	const third = await formEntry(sandbox(), { Kind: 'report', Name: 'three' }, [
		{ column: 'Photo', name: 'three.png', type: 'image/png', bytes: PHOTO },
	]);
	return [first, second, third];
}

async function makeFilePrivate(fileId: number) {
	const answer = await callSandbox(
		sandbox(),
		'PUT',
		`/v1/media/files/${fileId}/accessRules`,
		{ accessRules: [{ type: ['read'], allow: { tokens: [999] } }] },
		TOKENS.studio,
	);
	expect(answer.status).toBe(200);
}

describe('Entry → Get Many with Download Files', () => {
	it("downloads each entry's files into its own item", async () => {
		const reports = await threeReports();
		const result = await runNode({
			parameters: getManyWithFiles(),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual(reports.map((entry) => entry.id));
		const bytes = result.items.map((item) => Buffer.from(item.binary!.Photo.data, 'base64'));
		expect(bytes).toEqual([PHOTO, RECEIPT, PHOTO]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 0 },
		]);
		expect(sandbox().cdnRequests.map((request) => request.headers['auth-token'])).toEqual([
			undefined,
			undefined,
			undefined,
		]);
	});

	it('a file that fails stops the node, naming its column; with Continue On Fail only its entry becomes an error', async () => {
		const [, second] = await threeReports();
		await makeFilePrivate(second.data.PhotoMediaFileId);

		const stopped = await runNode({
			parameters: getManyWithFiles(),
			credentials: sandboxCredential(sandbox()),
		});
		expect(stopped.error?.message).toMatch(/^Column "Photo": .* answered 403 for the file$/);
		expect(stopped.error?.description).toMatch(/private or encrypted/);

		const kept = await runNode({
			parameters: getManyWithFiles(),
			credentials: sandboxCredential(sandbox()),
			continueOnFail: true,
		});
		expect(kept.error).toBeUndefined();
		expect(kept.json.map((json) => json.id ?? 'error')).toEqual([
			expect.any(Number),
			'error',
			expect.any(Number),
		]);
		expect(kept.json[1]).toEqual({
			error: expect.stringMatching(/answered 403/),
			description: expect.stringMatching(/private or encrypted/),
			entry: expect.objectContaining({ id: second.id, data: second.data }),
		});
		expect(kept.items[0].binary?.Photo).toBeDefined();
		expect(kept.items[2].binary?.Photo).toBeDefined();
	});

	it('refuses Download Files with the raw response, before any request', async () => {
		const result = await runNode({
			parameters: getManyWithFiles({ options: { output: 'raw' } }),
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error?.message).toBe('Download Files needs one item per entry');
		expect(sandbox().requests).toEqual([]);
	});
});
