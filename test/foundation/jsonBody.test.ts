// A JSON body is serialized once and walked for unsafe keys only when its text names one: the
// cheap look at the text must never miss a key the walk would refuse.
import { JsonBody } from '../../nodes/Fliplet/transport/jsonBody';
import { findUnsafeKey } from '../../nodes/Fliplet/transport/unsafeKeys';

describe('JSON request bodies', () => {
	it('are sent as the bytes of their JSON', () => {
		const value = { entries: [{ data: { Name: 'Zoë', n: 1 } }], append: true };
		expect(new JsonBody(value).bytes.toString('utf8')).toBe(JSON.stringify(value));
	});

	it.each([
		['a __proto__ key', '{"entries": [{"data": {"__proto__": {"admin": true}}}]}'],
		['a nested __proto__ key', '{"data": {"a": {"b": [{"__proto__": 1}]}}}'],
		['a constructor holding a prototype', '{"data": {"constructor": {"prototype": {}}}}'],
	])('are walked when they hold %s, and the walk finds it', (_name, json) => {
		const value = JSON.parse(json);
		const body = new JsonBody(value);
		expect(body.mayHoldUnsafeKey).toBe(true);
		expect(findUnsafeKey(body.value)).toBeDefined();
	});

	it.each([
		['the words as values', { data: { Note: '"__proto__": x', Other: 'constructor' } }],
		['a key ending in the word', { data: { my__proto__: 1, Xconstructor: 2 } }],
		['ordinary columns', { data: { Name: 'Ann', Proto: 'x' } }],
	])('are not walked for %s', (_name, value) => {
		expect(new JsonBody(value).mayHoldUnsafeKey).toBe(false);
	});
});
