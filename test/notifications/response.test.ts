import { createdList, notificationFrom } from '../../nodes/Fliplet/actions/notification/response';

describe('notification responses (shapes not documented)', () => {
	const sent = { created: true, data: { title: 'T' } };

	it('reads {notification} as the platform editor does, or the bare notification', () => {
		expect(notificationFrom({ notification: { id: 7, status: 'draft' } }, sent)).toEqual({
			id: 7,
			status: 'draft',
		});
		expect(notificationFrom({ id: 8, status: 'published' }, sent)).toEqual({
			id: 8,
			status: 'published',
		});
	});

	it('does not take any other answer for a notification', () => {
		expect(notificationFrom({ success: true }, sent)).toBe(sent);
		expect(notificationFrom(undefined, sent)).toBe(sent);
		expect(notificationFrom([{ id: 1 }], sent)).toBe(sent);
	});

	it('pairs batch results only when there is one object per notification sent', () => {
		expect(createdList({ notifications: [{ id: 1 }, { id: 2 }] }, 2)).toEqual([
			{ id: 1 },
			{ id: 2 },
		]);
		expect(createdList([{ id: 1 }], 1)).toEqual([{ id: 1 }]);
		expect(createdList({ notifications: [{ id: 1 }] }, 2)).toBeUndefined();
		expect(createdList({ notifications: [1, 2] }, 2)).toBeUndefined();
		expect(createdList({ success: true }, 1)).toBeUndefined();
	});
});
