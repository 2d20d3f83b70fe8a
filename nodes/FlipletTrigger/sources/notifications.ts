import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { LIST_EVERYTHING } from '../../Fliplet/actions/notification/listEverything';
import { listFrom } from '../../Fliplet/helpers/responses';
import { apiPath, flipletApiRequest } from '../../Fliplet/transport';
import { timeMs, type EventSource } from '../cursor';

const PAGE_SIZE = 100;

/**
 * New notifications of an app, whatever their status and audience (the list alone would show only
 * published ones for everyone). The list has no offset, so it is read by time: each page starts
 * at the time the previous one ended (`where` on createdAt, a POST-only option).
 */
export function notificationSource(context: IPollFunctions, appId: number): EventSource {
	const list = async (body: IDataObject) => {
		const response = await flipletApiRequest.call(context, {
			method: 'POST',
			path: apiPath('apps', appId, 'notifications'),
			body: { ...body, ...LIST_EVERYTHING },
			// Reading notifications changes nothing, so it may be sent again after a fault.
			idempotent: true,
		});
		return listFrom(context.getNode(), response, 'notifications');
	};
	return {
		key: `notification:${appId}`,
		timeOf: (notification) => String(notification.createdAt),
		async latest() {
			const [newest] = await list({ order: 'createdAt', direction: 'DESC', limit: 1 });
			return newest && { event: newest };
		},
		async *pages(since) {
			let from = since;
			let limit = PAGE_SIZE;
			for (;;) {
				const where = from === undefined ? {} : { where: { createdAt: { $gte: from } } };
				const events = await list({ order: 'createdAt', direction: 'ASC', limit, ...where });
				yield { offset: 0, events };
				if (events.length < limit) return;
				const last = String(events[events.length - 1].createdAt);
				// A page filled by one timestamp would come back the same: read a wider one instead.
				if (from !== undefined && timeMs(last) === timeMs(from)) limit *= 2;
				else from = last;
			}
		},
	};
}
