import {
	apiRequests,
	callSandbox,
	runNode,
	sandboxCredential,
	setSandboxReadings,
	TOKENS,
	useSandbox,
} from '../harness';
import { DEFAULT_IMAGE_SIZE_NOTE } from '../../nodes/Fliplet/helpers/fileDownloads';
import {
	formEntry,
	getWithFiles,
	PHOTO,
	readableByAppToken,
	RECEIPT,
	setAppFileRules,
	STAFF,
} from './fileFixtures';

// The platform serves an image read through the contents route without a size at its default size
// (`xlarge`, 1980 px on the smallest side, per the media REST docs); whether any size gives back
// the original bytes is not shown. Download Files sends no size and notes such images in the item's
// fileDownloads, in both of the sandbox's readings (`contentsImageSize`): the node cannot tell
// which one the platform plays.
const sandbox = useSandbox();

describe.each(['xlarge', 'original'] as const)(
	'Download Files and image sizes (contents route reading %s)',
	(contentsImageSize) => {
		beforeEach(() => setSandboxReadings(sandbox(), { contentsImageSize }));

		it('notes an image read through the API host; a PDF, and an image from the CDN, are not noted', async () => {
			const open = await formEntry(sandbox(), { Name: 'Public' }, [
				{ column: 'Photo', name: 'open.png', type: 'image/png', bytes: PHOTO },
			]);
			const fromCdn = await runNode({
				parameters: getWithFiles(open.id),
				credentials: sandboxCredential(sandbox()),
			});
			expect(fromCdn.error).toBeUndefined();
			expect(fromCdn.json[0].fileDownloads).toEqual([
				{ column: 'Photo', url: open.data.Photo, status: 'downloaded', binaryProperty: 'Photo' },
			]);

			await setAppFileRules(sandbox(), readableByAppToken);
			const locked = await formEntry(sandbox(), { Name: 'Private' }, [
				{ column: 'Photo', name: 'scan.png', type: 'image/png', bytes: PHOTO },
				{ column: 'Receipt', name: 'receipt.pdf', type: 'application/pdf', bytes: RECEIPT },
			]);
			const fromApi = await runNode({
				parameters: getWithFiles(locked.id),
				credentials: sandboxCredential(sandbox()),
			});
			expect(fromApi.error).toBeUndefined();
			expect(fromApi.json[0].fileDownloads).toEqual([
				{
					column: 'Photo',
					url: locked.data.Photo,
					status: 'downloaded',
					binaryProperty: 'Photo',
					note: DEFAULT_IMAGE_SIZE_NOTE,
				},
				{
					column: 'Receipt',
					url: locked.data.Receipt,
					status: 'downloaded',
					binaryProperty: 'Receipt',
				},
			]);

			// A URL that asks for a size gets that size: nothing to note.
			const withSize = `${locked.data.Photo}?size=xxlarge`;
			await callSandbox(sandbox(), 'PUT', `/v1/data-sources/${STAFF}/data/${locked.id}`, {
				Sized: withSize,
			});
			const sized = await runNode({
				parameters: getWithFiles(locked.id, { fileColumns: 'Sized' }),
				credentials: sandboxCredential(sandbox()),
			});
			expect(sized.error).toBeUndefined();
			expect(sized.json[0].fileDownloads).toEqual([
				{ column: 'Sized', url: withSize, status: 'downloaded', binaryProperty: 'Sized' },
			]);
			// Download Files asked for no size; the URL that named one was read with it.
			expect(apiRequests(sandbox(), /\/contents\//).map((request) => request.query)).toEqual([
				{},
				{},
				{ size: 'xxlarge' },
			]);
			// What the sandbox played for that read (it cannot resize: it says so in a header).
			const read = await callSandbox(
				sandbox(),
				'GET',
				new URL(locked.data.Photo).pathname,
				undefined,
				TOKENS.app,
			);
			expect(read.headers.get('x-sandbox-transform')).toBe(
				contentsImageSize === 'xlarge' ? 'size=xlarge' : null,
			);
		});
	},
);
