import { chunk, chunkBy, describeItems } from '../../nodes/Fliplet/helpers/batch';
import {
	headerProblem,
	isEmailAddress,
	parseRecipient,
	splitRecipients,
} from '../../nodes/Fliplet/helpers/email';
import { toE164 } from '../../nodes/Fliplet/helpers/phone';

describe('email helpers', () => {
	it('splits commas, semicolons, new lines and lists, dropping blanks', () => {
		expect(splitRecipients(' a@x.io, b@x.io;c@x.io\n\n')).toEqual([
			{ email: 'a@x.io' },
			{ email: 'b@x.io' },
			{ email: 'c@x.io' },
		]);
		expect(splitRecipients(['a@x.io', { email: 'b@x.io' }, 'c@x.io, d@x.io'])).toEqual([
			{ email: 'a@x.io' },
			{ email: 'b@x.io' },
			{ email: 'c@x.io' },
			{ email: 'd@x.io' },
		]);
		expect(splitRecipients(undefined)).toEqual([]);
	});

	it.each(['ann@example.com', 'first.last+tag@sub.example.co.uk', "o'neil@example.ie"])(
		'accepts %s',
		(address) => {
			expect(isEmailAddress(address)).toBe(true);
		},
	);

	it.each([
		'bob@',
		'@example.com',
		'ann@example',
		'ann smith@example.com',
		'Ann <ann@example.com>',
		'a@b@c.com',
		'ann@.com',
	])('refuses %s', (address) => {
		expect(isEmailAddress(address)).toBe(false);
	});

	it('reads display names as mail clients write them', () => {
		expect(splitRecipients('Ann <a@x.io>; "Lee, Bob" <b@x.io>\nc@x.io, <d@x.io>')).toEqual([
			{ email: 'a@x.io', name: 'Ann' },
			{ email: 'b@x.io', name: 'Lee, Bob' },
			{ email: 'c@x.io' },
			{ email: 'd@x.io' },
		]);
		expect(parseRecipient('"a<b" <x@y.io>')).toEqual({ email: 'x@y.io', name: 'a<b' });
		expect(parseRecipient('Ann ann@x.io')).toEqual({ email: 'Ann ann@x.io' });
	});

	it('allows X- and standard headers, refuses others, bad names and line breaks', () => {
		expect(headerProblem('X-Campaign', 'spring')).toBeUndefined();
		expect(headerProblem('x-lower', 'ok')).toBeUndefined();
		expect(headerProblem('Reply-To', 'hr@example.com')).toBeUndefined();
		expect(headerProblem('Campaign', 'x')).toMatch(/neither a custom header starting with "X-"/);
		expect(headerProblem('From', 'boss@example.com')).toMatch(/neither/);
		expect(headerProblem('X Bad', 'x')).toMatch(/not a valid header name/);
		expect(headerProblem('X-Tag', 'a\nBcc: e@example.com')).toMatch(/line break/);
	});
});

describe('phone helper', () => {
	it.each([
		['+447700900123', '+447700900123'],
		['+44 7700 900-123', '+447700900123'],
		['(+1) 415.555.0100', '+14155550100'],
		['0033612345678', '+33612345678'],
	])('reads %s as %s', (input, expected) => {
		expect(toE164(input)).toBe(expected);
	});

	it.each(['07700900123', '+0123456789', '+12', '+1234567890123456', '+44 CALL', ''])(
		'refuses %s',
		(input) => {
			expect(toE164(input)).toBeUndefined();
		},
	);
});

describe('batch helpers', () => {
	it('chunks in order, the last chunk shorter', () => {
		expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
		expect(chunk([], 3)).toEqual([]);
		expect(chunk([1, 2], 0)).toEqual([[1], [2]]);
	});

	it('chunks per key, groups in the order keys first appear', () => {
		expect(chunkBy(['a1', 'b1', 'a2', 'a3', 'b2'], 2, (s) => s[0])).toEqual([
			['a1', 'a2'],
			['a3'],
			['b1', 'b2'],
		]);
	});

	it('describes item indexes', () => {
		expect(describeItems([3])).toBe('item 3');
		expect(describeItems([2, 0, 1])).toBe('items 0–2');
		expect(describeItems([0, 2, 5])).toBe('items 0, 2, 5');
	});
});
