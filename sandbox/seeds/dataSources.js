'use strict';

const { iso, TOKENS } = require('../state');
const store = require('../dataSources/store');
const { setRules } = require('../dataSources/access');
const versions = require('../dataSources/versions');

const EPOCH = Date.parse('2026-01-05T09:00:00.000Z');
const at = (minutes) => iso(EPOCH + minutes * 60_000);

/**
 * Data sources of the fixture (ids below 1000, so they never meet ids the sandbox hands out):
 * - 100 "Staff" (org 1, app 11): five people, nested Address;
 * - 101 "Departments" (org 1, app 11): joinable to Staff on Department;
 * - 102 "2024" (org 1, app 11): an all-digit name;
 * - 103 "Restricted" (org 1, app 11): security rules let the Staff Directory token only read,
 *   the Field Reports token do everything, and no other token anything;
 * - 104 "Public Events" (org 1, app 21): public, readable without a token;
 * - 105 "Partner Data" (org 2, app 31).
 */
const DATA_SOURCES = [
	{
		id: 100,
		name: 'Staff',
		appId: 11,
		organizationId: 1,
		columns: ['Name', 'Email', 'Department', 'Age', 'Joined', 'Address'],
	},
	{ id: 101, name: 'Departments', appId: 11, organizationId: 1, columns: ['Name', 'Floor'] },
	{ id: 102, name: '2024', appId: 11, organizationId: 1, columns: ['Quarter', 'Revenue'] },
	{ id: 103, name: 'Restricted', appId: 11, organizationId: 1, columns: ['Secret'] },
	{
		id: 104,
		name: 'Public Events',
		appId: 21,
		organizationId: 1,
		columns: ['Title', 'Date'],
		public: true,
	},
	{ id: 105, name: 'Partner Data', appId: 31, organizationId: 2, columns: ['Partner'] },
];

const ENTRIES = {
	100: [
		{
			Name: 'Alice Martin',
			Email: 'alice@example.com',
			Department: 'Sales',
			Age: 34,
			Joined: '2021-03-15',
			Address: { city: 'London' },
		},
		{
			Name: 'Bob Stone',
			Email: 'bob@example.com',
			Department: 'Engineering',
			Age: 28,
			Joined: '2022-07-01',
			Address: { city: 'Paris' },
		},
		{
			Name: 'Carla Diaz',
			Email: 'carla@example.com',
			Department: 'Sales',
			Age: 45,
			Joined: '2019-11-20',
			Address: { city: 'London' },
		},
		{
			Name: 'Dan Wu',
			Email: 'dan@example.com',
			Department: 'Support',
			Age: 23,
			Joined: '2024-01-08',
			Address: { city: 'Berlin' },
		},
		{
			Name: 'Eve Adams',
			Email: 'eve@example.com',
			Department: 'Engineering',
			Age: 39,
			Joined: '2020-05-30',
			Address: { city: 'Paris' },
		},
	],
	101: [
		{ Name: 'Sales', Floor: 1 },
		{ Name: 'Engineering', Floor: 3 },
	],
	102: [
		{ Quarter: 'Q1', Revenue: '1200.50' },
		{ Quarter: 'Q2', Revenue: '980' },
	],
	103: [{ Secret: 'launch codes' }],
	104: [{ Title: 'Open day', Date: '2026-02-01' }],
	105: [{ Partner: 'Globex' }],
};

function seedDataSources(state) {
	let entryId = 200;
	for (const [index, fields] of DATA_SOURCES.entries()) {
		const dataSource = {
			appCapabilities: null,
			hooks: [],
			encrypted: false,
			type: null,
			public: false,
			createdAt: at(index),
			updatedAt: at(index),
			...fields,
		};
		state.dataSources.push(dataSource);
		const entries = (ENTRIES[dataSource.id] ?? []).map((data, n) => ({
			id: entryId++,
			data,
			dataSourceId: dataSource.id,
			createdAt: at(10 + n),
			updatedAt: at(10 + n),
		}));
		store.setEntries(state, dataSource.id, entries);
	}
	setRules(state, 103, {
		[TOKENS.app]: ['read'],
		[TOKENS.otherApp]: ['read', 'write', 'update', 'delete'],
	});
	const staff = state.dataSources.find((dataSource) => dataSource.id === 100);
	const clock = state.now;
	state.now = () => EPOCH + 60 * 60_000;
	versions.snapshot(state, staff, 'snapshot', { userId: 1 });
	state.now = clock;
}

module.exports = { seedDataSources };
