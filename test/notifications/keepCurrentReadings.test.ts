// Update with Status "Keep Current" under every reading of what an update leaves out: SPEC says
// status defaults to draft and orderAt to now; the push editor's notes send `{data}` alone to a
// live notification, and its form leaves orderAt out unless it schedules
// (Fliplet/fliplet-widget-push-notifications: src/components/NotificationNotes.vue,
// NotificationForm.vue). Whichever the platform does, the notification keeps its status and its
// place in the list.
import type { IDataObject } from 'n8n-workflow';

import {
	apiRequests,
	callSandbox,
	NOTIFICATION_UPDATE_READINGS,
	runNode,
	sandboxCredential,
	setSandboxReadings,
	TOKENS,
	useSandbox,
} from '../harness';

const sandbox = useSandbox();

/** When the notification is made (with milliseconds the platform does not keep), and an hour on. */
const MADE_AT = Date.parse('2026-03-02T10:00:00.789Z');
const LATER = MADE_AT + 3_600_000;
const setClock = (at: number) => {
	sandbox().state.now = () => at;
};

const stored = (id: number) =>
	sandbox().state.notifications.find((n: IDataObject) => n.id === id) as IDataObject;

/** The ids of the app's notifications in the order the list gives them (newest orderAt first). */
async function listed(): Promise<number[]> {
	const answer = await callSandbox(
		sandbox(),
		'POST',
		'/v1/apps/11/notifications',
		{ status: ['draft', 'published', 'scheduled'], includeAllScopes: true },
		TOKENS.org,
	);
	return answer.body.notifications.map((n: IDataObject) => n.id);
}

/** A notification made through the API at MADE_AT, as another client would make it. */
async function made(status: string): Promise<number> {
	setClock(MADE_AT);
	const scheduled = status === 'scheduled' ? { orderAt: MADE_AT / 1000 + 86_400 } : {};
	const answer = await callSandbox(
		sandbox(),
		'PUT',
		'/v1/apps/11/notifications',
		{ data: { title: `A ${status} one` }, status, ...scheduled },
		TOKENS.org,
	);
	expect(answer.status).toBe(200);
	return answer.body.notification.id;
}

const keepCurrent = (id: number) =>
	runNode({
		parameters: {
			resource: 'notification',
			operation: 'update',
			app: { __rl: true, mode: 'id', value: '11' },
			notificationId: String(id),
			message: 'Corrected text',
		},
		credentials: sandboxCredential(sandbox()),
	});

describe.each(NOTIFICATION_UPDATE_READINGS)(
	'Notification → Update, Keep Current, an update without status read $updateStatus and without orderAt read $updateOrderAt',
	(readings) => {
		beforeEach(() => setSandboxReadings(sandbox(), readings));

		it.each(['published', 'draft', 'scheduled'])(
			'a %s notification made by another client keeps its status and its place',
			async (status) => {
				const id = await made(status);
				const before = { ...stored(id) };
				const order = await listed();
				setClock(LATER);

				const result = await keepCurrent(id);

				expect(result.error).toBeUndefined();
				const put = apiRequests(sandbox(), /\/notifications\/\d+$/)[0];
				// What SPEC's defaults would change is sent as stored: the status, and the date in
				// the whole seconds the platform keeps, so it comes back exactly.
				expect(put.body).toEqual({
					isPushNotificationWidget: true,
					status,
					orderAt: Date.parse(String(before.orderAt)) / 1000,
					data: { message: 'Corrected text' },
					extendData: true,
				});
				expect(stored(id)).toMatchObject({
					status,
					orderAt: before.orderAt,
					data: { title: `A ${status} one`, message: 'Corrected text' },
				});
				expect(await listed()).toEqual(order);
				expect(result.json[0]).toMatchObject({ id, status, orderAt: before.orderAt });
			},
		);

		it('a seeded published notification keeps its date of January', async () => {
			setClock(LATER);
			const result = await keepCurrent(501);
			expect(result.error).toBeUndefined();
			expect(stored(501)).toMatchObject({
				status: 'published',
				orderAt: '2026-01-10T08:00:00.000Z',
			});
		});
	},
);

describe('The sandbox plays each reading of an update that leaves status and orderAt out', () => {
	/** What the editor's notes send: `{data}` alone, an hour after the notification was made. */
	async function notesOnly(): Promise<IDataObject> {
		const id = await made('published');
		setClock(LATER);
		const answer = await callSandbox(
			sandbox(),
			'PUT',
			`/v1/apps/11/notifications/${id}`,
			{ data: { title: 'Notes' } },
			TOKENS.org,
		);
		expect(answer.status).toBe(200);
		return answer.body.notification;
	}

	it("SPEC's defaults: it becomes a draft dated now (whole seconds)", async () => {
		const notification = await notesOnly();
		expect(notification).toMatchObject({ status: 'draft', orderAt: '2026-03-02T11:00:00.000Z' });
	});

	it('kept: it stays published at its date, made without the milliseconds', async () => {
		setSandboxReadings(sandbox(), { updateStatus: 'kept', updateOrderAt: 'kept' });
		const notification = await notesOnly();
		expect(notification).toMatchObject({
			status: 'published',
			orderAt: '2026-03-02T10:00:00.000Z',
		});
	});
});
