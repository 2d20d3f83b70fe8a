// Hostile input in every text field of the other operations (apps, AI, email, SMS, notifications,
// organizations, tokens, user).
import { describeHostileInput, DATA_RESOURCES } from './hostileInput';
import { nodeOperations } from './nodeFields';
import { OPERATION_CASES } from './operationCases';

it('every operation of the node has a case, so each file covers its whole share', () => {
	expect(nodeOperations().filter((operation) => !OPERATION_CASES[operation])).toEqual([]);
});

describeHostileInput(
	'hostile input in every text field of the other operations',
	(resource) => !DATA_RESOURCES.includes(resource),
);
