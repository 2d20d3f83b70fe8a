// A JSON body is serialized once and walked for unsafe keys only when its text names one: the
// cheap look at the text must never miss a key the walk would refuse.
import { NodeOperationError, type INode } from 'n8n-workflow';

import { JsonBody, jsonBodyOf } from '../../nodes/Fliplet/transport/jsonBody';

const bodyOf = (value: object) => new JsonBody(value as never, JSON.stringify(value));
import { findUnsafeKey } from '../../nodes/Fliplet/transport/unsafeKeys';

describe('JSON request bodies', () => {
	it('are sent as the bytes of their JSON', () => {
		const value = { entries: [{ data: { Name: 'Zoë', n: 1 } }], append: true };
		expect(bodyOf(value).bytes.toString('utf8')).toBe(JSON.stringify(value));
	});

	it.each([
		['a __proto__ key', '{"entries": [{"data": {"__proto__": {"admin": true}}}]}'],
		['a nested __proto__ key', '{"data": {"a": {"b": [{"__proto__": 1}]}}}'],
		['a constructor holding a prototype', '{"data": {"constructor": {"prototype": {}}}}'],
	])('are walked when they hold %s, and the walk finds it', (_name, json) => {
		const value = JSON.parse(json);
		const body = bodyOf(value);
		expect(body.mayHoldUnsafeKey).toBe(true);
		expect(findUnsafeKey(body.value)).toBeDefined();
	});

	it.each([
		['the words as values', { data: { Note: '"__proto__": x', Other: 'constructor' } }],
		['a key ending in the word', { data: { my__proto__: 1, Xconstructor: 2 } }],
		['ordinary columns', { data: { Name: 'Ann', Proto: 'x' } }],
	])('are not walked for %s', (_name, value) => {
		expect(bodyOf(value).mayHoldUnsafeKey).toBe(false);
	});

	// n8n hands nodes JSON-safe items, so this is only reached by data another node built in
	// memory: the helper alone is checked, with the one method it calls.
	const context = { getNode: () => ({ name: 'Fliplet' }) as INode } as never;

	it('refuse an object that contains itself before sending, naming the item and the fix', () => {
		const looped: Record<string, unknown> = {};
		looped.self = looped;
		let thrown: unknown;
		try {
			jsonBodyOf(context, looped as never, 3);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(NodeOperationError);
		const error = thrown as NodeOperationError;
		expect(error.message).toMatch(/^The data cannot be sent as JSON: .*circular/i);
		expect(error.context.itemIndex).toBe(3);
		expect(error.description).toContain('Nothing was sent');
	});
});
