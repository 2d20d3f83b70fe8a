// Hostile input in every text field of the data source, version and entry operations.
import { describeHostileInput, DATA_RESOURCES } from './hostileInput';

describeHostileInput('hostile input in every text field of the data operations', (resource) =>
	DATA_RESOURCES.includes(resource),
);
