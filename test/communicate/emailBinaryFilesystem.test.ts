import {
	apiRequests,
	runNode,
	sandboxCredential,
	useFilesystemBinaryData,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();

// Real n8n keeps binary data on disk and passes only an id in the item: the node must read it
// through n8n's helpers, never from `item.binary[x].data`.
const binaryData = useFilesystemBinaryData();

describe('Email attachments with binary data stored on disk', () => {
	it('sends the file content read through the binary helpers', async () => {
		const content = Buffer.from('col1,col2\n1,2\n');
		const result = await runNode({
			parameters: {
				resource: 'email',
				operation: 'send',
				to: 'ann@example.com',
				subject: 'Export',
				html: '<p>Attached</p>',
				options: { binaryProperties: 'data' },
			},
			input: [
				{
					json: {},
					binary: {
						data: {
							data: content.toString('base64'),
							fileName: 'export.csv',
							mimeType: 'text/csv',
						},
					},
				},
			],
			credentials: sandboxCredential(sandbox()),
		});
		expect(result.error).toBeUndefined();
		const [request] = apiRequests(sandbox(), /^\/v1\/communicate\/email$/);
		expect(request.body.attachments).toEqual([
			{
				type: 'text/csv',
				content: content.toString('base64'),
				name: 'export.csv',
				encoding: 'base64',
			},
		]);
		expect(result.json[0].attachments).toEqual(['export.csv']);
	});

	it('really stores the input binary by id (so the test above proves the helper path)', async () => {
		const result = await runNode({
			parameters: { resource: 'email', operation: 'send', to: 'ann@example.com', options: {} },
			input: [
				{
					json: {},
					binary: { data: { data: 'aGVsbG8=', fileName: 'a.txt', mimeType: 'text/plain' } },
				},
			],
			credentials: sandboxCredential(sandbox()),
		});
		const inputRun = result.run.data.resultData.runData['Input'][0].data!.main[0]![0];
		expect(inputRun.binary?.data.id).toMatch(/^filesystem/);
		expect(inputRun.binary?.data.data).not.toBe('aGVsbG8=');
	});

	it("reads each file just before its email is sent, not every item's file up front", async () => {
		const service = binaryData();
		const original = service.getAsBuffer.bind(service);
		const emailsSentAtEachRead: number[] = [];
		const read = jest
			.spyOn(service, 'getAsBuffer')
			.mockImplementation(async (...args: Parameters<typeof original>) => {
				emailsSentAtEachRead.push(apiRequests(sandbox(), /^\/v1\/communicate\/email$/).length);
				return await original(...args);
			});
		const file = (name: string) => ({
			json: {},
			binary: {
				data: {
					data: Buffer.from(`content of ${name}`).toString('base64'),
					fileName: name,
					mimeType: 'text/plain',
				},
			},
		});
		try {
			const result = await runNode({
				parameters: {
					resource: 'email',
					operation: 'send',
					to: 'ann@example.com',
					subject: 'Your file',
					options: { binaryProperties: 'data' },
				},
				input: [file('a.txt'), file('b.txt')],
				credentials: sandboxCredential(sandbox()),
			});
			expect(result.error).toBeUndefined();
			expect(emailsSentAtEachRead).toEqual([0, 1]);
			const requests = apiRequests(sandbox(), /^\/v1\/communicate\/email$/);
			expect(
				requests.map((request) =>
					Buffer.from(request.body.attachments[0].content, 'base64').toString(),
				),
			).toEqual(['content of a.txt', 'content of b.txt']);
			expect(result.json.map((item) => item.attachments)).toEqual([['a.txt'], ['b.txt']]);
		} finally {
			read.mockRestore();
		}
	});
});
