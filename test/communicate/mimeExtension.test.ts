import { extensionForMimeType, fallbackFileName } from '../../nodes/Fliplet/helpers/mimeExtension';

describe('fallbackFileName (a binary without a file name)', () => {
	it.each([
		['invoice', 'application/pdf', undefined, 'invoice.pdf'],
		['report', 'text/csv; charset=utf-8', undefined, 'report.csv'],
		[
			'sheet',
			'APPLICATION/VND.OPENXMLFORMATS-OFFICEDOCUMENT.SPREADSHEETML.SHEET',
			undefined,
			'sheet.xlsx',
		],
		['photo', 'image/jpeg', undefined, 'photo.jpg'],
		['photo', 'image/jpeg', 'jpeg', 'photo.jpeg'],
		['data', 'application/octet-stream', undefined, 'data'],
		['data', undefined, undefined, 'data'],
		['scan', 'application/x-made-up', '.tiff', 'scan.tiff'],
	])('%s (%s, extension %s) is sent as %s', (property, mimeType, extension, name) => {
		expect(fallbackFileName(property, mimeType, extension)).toBe(name);
	});

	it('knows nothing of a made-up type', () => {
		expect(extensionForMimeType('application/x-made-up')).toBeUndefined();
	});
});
