/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import {
	FLIPLET_INSTANT_TRIGGER,
	sandboxCredential,
	TOKENS,
	useSandbox,
	WebhookHost,
} from '../harness';
import { runPoll } from '../harness/poll';
import {
	contentsRequests,
	formEntry,
	PHOTO,
	readableByAnotherToken,
	RECEIPT,
	setAppFileRules,
	STAFF,
	STAFF_LOCATOR,
} from './fileFixtures';

const { hooksSettled } = require('../../sandbox/dataSources/hooks');

// Download Files on the triggers: a form's new entry reaches the workflow with its files, and a
// file that cannot be downloaded is reported in the item, never a reason to hold the entry back.
const sandbox = useSandbox();

const poll = (
	staticData: Record<string, any> | undefined,
	mode: 'trigger' | 'manual' = 'trigger',
) =>
	runPoll({
		parameters: {
			event: 'newEntry',
			dataSource: STAFF_LOCATOR,
			downloadFiles: true,
		} as never,
		credentials: sandboxCredential(sandbox(), TOKENS.app),
		staticData,
		mode,
	});

describe('Fliplet Trigger with Download Files', () => {
	it("delivers a form's new entry with its file, and reports a file it cannot read without holding the entry back", async () => {
		const activation = await poll(undefined);
		expect(activation.items).toBeNull();

		const chair = await formEntry(sandbox(), { Name: 'Chair' }, [
			{ column: 'Photo', name: 'chair.png', type: 'image/png', bytes: PHOTO },
		]);
		await setAppFileRules(sandbox(), readableByAnotherToken);
		const safe = await formEntry(sandbox(), { Name: 'Safe' }, [
			{ column: 'Photo', name: 'safe.png', type: 'image/png', bytes: RECEIPT },
		]);

		const second = await poll(activation.staticData);
		expect(second.error).toBeUndefined();
		expect(second.items!.map((item) => item.json.id)).toEqual([chair.id, safe.id]);
		const [withPhoto, withoutPhoto] = second.items!;
		// The first file became private too (its app's rules changed): read through the CDN it is
		// refused, and so is the second, through the API host.
		expect(withPhoto.binary).toBeUndefined();
		expect(withPhoto.json.fileDownloads).toEqual([
			expect.objectContaining({
				column: 'Photo',
				status: 'failed',
				reason: expect.stringMatching(/403/),
			}),
		]);
		expect(withoutPhoto.json.fileDownloads).toEqual([
			{
				column: 'Photo',
				url: safe.data.Photo,
				status: 'failed',
				reason: expect.stringMatching(/permission to access this file.*access rules/),
			},
		]);
		expect(contentsRequests(sandbox()).map((request) => request.headers['auth-token'])).toEqual([
			TOKENS.app,
		]);

		// The cursor moved past both: the next poll delivers nothing again.
		const third = await poll(second.staticData);
		expect(third.items).toBeNull();
	});

	it('delivers the file as binary data, fetched from the CDN without the token', async () => {
		const activation = await poll(undefined);
		const entry = await formEntry(sandbox(), { Name: 'Lamp' }, [
			{ column: 'Photo', name: 'lamp.png', type: 'image/png', bytes: PHOTO, list: true },
		]);
		const next = await poll(activation.staticData);
		expect(next.error).toBeUndefined();
		const [item] = next.items!;
		expect(item.json.id).toBe(entry.id);
		expect(Buffer.from(item.binary!.Photo_0.data, 'base64').equals(PHOTO)).toBe(true);
		expect(sandbox().cdnRequests).toHaveLength(1);
		expect(sandbox().cdnRequests[0].headers['auth-token']).toBeUndefined();
	});

	it('Fetch Test Event gives the newest entry with its files', async () => {
		const entry = await formEntry(sandbox(), { Name: 'Vase' }, [
			{ column: 'Photo', name: 'vase.png', type: 'image/png', bytes: PHOTO },
		]);
		const test = await poll(undefined, 'manual');
		expect(test.error).toBeUndefined();
		expect(test.items![0].json.id).toBe(entry.id);
		expect(Object.keys(test.items![0].binary ?? {})).toEqual(['Photo']);
	});
});

describe('Fliplet Instant Trigger with Download Files', () => {
	let host: WebhookHost | undefined;
	afterEach(async () => {
		await host?.stop();
		host = undefined;
	});

	it("starts the workflow with the inserted entry's file as binary data", async () => {
		host = new WebhookHost(
			FLIPLET_INSTANT_TRIGGER,
			{ dataSource: STAFF_LOCATOR, events: ['insert'], downloadFiles: true } as never,
			sandboxCredential(sandbox(), TOKENS.org),
		);
		await host.start();
		await host.publish();
		const entry = await formEntry(sandbox(), { Name: 'Crate' }, [
			{ column: 'Photo', name: 'crate.png', type: 'image/png', bytes: PHOTO },
		]);
		await hooksSettled(sandbox().state);
		await host.settled();

		expect(host.executions).toHaveLength(1);
		const [execution] = host.executions;
		expect(execution.status).toBe('success');
		const [item] = execution.items;
		expect(item.json).toMatchObject({ id: entry.id, dataSourceId: STAFF });
		expect(Buffer.from(item.binary!.Photo.data, 'base64').equals(PHOTO)).toBe(true);
		expect(sandbox().cdnRequests.map((request) => request.headers['auth-token'])).toEqual([
			undefined,
		]);
	});
});
