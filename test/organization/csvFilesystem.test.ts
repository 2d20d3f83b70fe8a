import {
	runNode,
	sandboxCredential,
	TOKENS,
	useFilesystemBinaryData,
	useSandbox,
} from '../harness';
import { addLog } from './seedLogs';

// Real n8n stores binary data by id (on disk here), not inline: the CSV export must be written
// only through n8n's binary helpers.
const sandbox = useSandbox();
const binaryData = useFilesystemBinaryData();

describe('Audit log CSV in filesystem binary mode', () => {
	it('stores the CSV file by id, with the exported records', async () => {
		const added = Array.from({ length: 3 }, (_, n) =>
			addLog(sandbox().state, {
				type: 'form.submit',
				createdAt: new Date(Date.UTC(2026, 2, 1) + n).toISOString(),
			}),
		);
		const result = await runNode({
			parameters: {
				resource: 'organization',
				operation: 'getAuditLogs',
				organization: { __rl: true, mode: 'id', value: '1' },
				format: 'csv',
				binaryPropertyName: 'data',
				returnAll: true,
				filters: { eventTypes: 'form.submit' },
				options: { fields: 'id,type,createdAt', order: 'ASC' },
			} as never,
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error).toBeUndefined();
		const binary = result.items[0].binary!.data;
		expect(binary.id).toEqual(expect.stringMatching(/^filesystem/));
		const csv = (await binaryData().getAsBuffer(binary)).toString('utf8');
		expect(csv).toBe(
			['id,type,createdAt', ...added.map((log) => `${log.id},form.submit,${log.createdAt}`)].join(
				'\r\n',
			) + '\r\n',
		);
	});
});
