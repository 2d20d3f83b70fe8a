import { buildMultipartBody } from '../../nodes/Fliplet/transport/multipart';

const headersOf = (body: Buffer) =>
	body
		.toString('latin1')
		.split('\r\n')
		.filter((line) => /^[A-Za-z-]+: /.test(line));

describe('multipart part headers', () => {
	it('a MIME type from item data cannot add a header line', () => {
		const { body } = buildMultipartBody(
			[],
			[
				{
					name: 'file',
					fileName: 'a.png',
					mimeType: 'image/png\r\nX-Injected: yes\r\n\r\nforged',
					data: Buffer.from('PNG'),
				},
			],
		);
		expect(headersOf(body)).toEqual([
			'Content-Disposition: form-data; name="file"; filename="a.png"',
			'Content-Type: image/pngX-Injected: yesforged',
		]);
		expect(body.toString('latin1')).not.toMatch(/\r\nX-Injected/);
	});

	it('keeps a clean MIME type with its parameters, and names one when none is left', () => {
		const files = (mimeType: string) => [
			{ name: 'file', fileName: 'a.txt', mimeType, data: Buffer.from('x') },
		];
		expect(headersOf(buildMultipartBody([], files('text/plain; charset=utf-8')).body)).toContain(
			'Content-Type: text/plain; charset=utf-8',
		);
		expect(headersOf(buildMultipartBody([], files('\r\n')).body)).toContain(
			'Content-Type: application/octet-stream',
		);
	});
});
