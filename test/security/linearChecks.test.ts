// Checks of what a user or a server can put in a field that the other security tests do not
// time themselves: each one's work grows with its input, never faster.
import { withoutTrailingSlashes } from '../../nodes/Fliplet/transport/baseUrl';
import { isUnsendablePathSegment } from '../../nodes/Fliplet/transport/pathSegments';
import {
	findUnsafeFormKey,
	mayHoldUnsafeKey,
	unsafeKeyInFieldName,
} from '../../nodes/Fliplet/transport/unsafeKeys';
import { expectLinear } from './timing';

describe.each([
	[
		'a custom base URL losing its trailing slashes',
		withoutTrailingSlashes,
		(n: number) => `https://h/${'/'.repeat(n)}x`,
	],
	['a JSON text looked at for unsafe keys', mayHoldUnsafeKey, (n: number) => `{"${'_'.repeat(n)}`],
	['a form field name', unsafeKeyInFieldName, (n: number) => '[.'.repeat(n / 2)],
	[
		// Many small objects: the most work per byte (depth is tested in unsafeKeys.test.ts).
		'a form field holding JSON',
		(text: string) => findUnsafeFormKey([{ name: 'a', value: text }]),
		(n: number) => `{"constructor": [${'{"a": [1]},'.repeat(n / 11)}{}]}`,
	],
	['a path segment', isUnsendablePathSegment, (n: number) => '.'.repeat(n)],
])('%s', (_name, check, textOf) => {
	it('takes linear time', () => {
		expectLinear(check as (text: string) => unknown, textOf);
	});
});

it('a custom base URL keeps everything but its trailing slashes', () => {
	expect(withoutTrailingSlashes(' https://api.example.com/v//')).toBe(' https://api.example.com/v');
	expect(withoutTrailingSlashes('////')).toBe('');
});
