import type { IDataObject } from 'n8n-workflow';

const DEPARTMENTS = ['Sales', 'Engineering', 'Support', 'Finance', 'Operations'];
const CITIES = ['London', 'Paris', 'Berlin', 'Madrid', 'Rome', 'Dublin', 'Lisbon'];

/**
 * Row `i` of a spreadsheet-like table (8 columns, ~190 bytes of JSON). With `changeEvery` = 100,
 * every 100th row has a different score: 1% of the rows changed.
 */
export function spreadsheetRow(i: number, changeEvery = 0): IDataObject {
	const changed = changeEvery > 0 && i % changeEvery === 0;
	return {
		Email: `user${i}@example.com`,
		Name: `User Number ${i}`,
		Department: DEPARTMENTS[i % DEPARTMENTS.length],
		City: CITIES[i % CITIES.length],
		Age: 20 + (i % 45),
		Active: i % 3 !== 0,
		Joined: `20${10 + (i % 15)}-0${1 + (i % 9)}-1${i % 10}`,
		Score: ((i * 37) % 1000) + (changed ? 1 : 0),
	};
}

/** The size of the rows as one JSON array, without building the string. */
export function inputJsonBytes(count: number, changeEvery = 0): number {
	let bytes = 2 + Math.max(0, count - 1);
	for (let i = 0; i < count; i++)
		bytes += Buffer.byteLength(JSON.stringify(spreadsheetRow(i, changeEvery)));
	return bytes;
}
