'use strict';

const zlib = require('node:zlib');

function crc32(buffer) {
	let crc = 0xffffffff;
	for (const byte of buffer) {
		crc ^= byte;
		for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
	}
	return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body));
	return Buffer.concat([length, body, crc]);
}

/** A valid 1x1 RGB PNG of one colour, built (not hard-coded) so its checksums are right. */
function onePixelPng([red, green, blue]) {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(1, 0); // width
	header.writeUInt32BE(1, 4); // height
	header[8] = 8; // bit depth
	header[9] = 2; // colour type: RGB
	const scanline = Buffer.from([0, red, green, blue]); // filter byte, then the pixel
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', zlib.deflateSync(scanline)),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

module.exports = { onePixelPng, crc32 };
