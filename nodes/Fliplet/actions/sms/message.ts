import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { excerpt } from '../../helpers/excerpt';
import { toE164 } from '../../helpers/phone';
import { refuseItem } from '../../helpers/refuseItem';

export const TWILIO_CREDENTIAL = 'twilioForFlipletApi';

export interface TwilioSecrets {
	accountSid: string;
	authToken: string;
}

function phone(context: IExecuteFunctions, itemIndex: number, name: string, label: string): string {
	const raw = String(context.getNodeParameter(name, itemIndex, '') ?? '');
	const number = toE164(raw);
	if (!number) {
		refuseItem(
			context,
			itemIndex,
			`"${label}" is not a phone number in international (E.164) format: "${excerpt(raw)}"`,
			'Write it with "+", the country code and the number, e.g. +447700900123 (spaces and dashes are ignored; a leading 00 is read as +).',
		);
	}
	return number;
}

/** The Twilio credential, read once per run; a clear error when the Twilio provider lacks it. */
export async function twilioSecrets(this: IExecuteFunctions): Promise<TwilioSecrets> {
	let credentials: IDataObject | undefined;
	try {
		credentials = (await this.getCredentials(TWILIO_CREDENTIAL)) as IDataObject;
	} catch {
		credentials = undefined;
	}
	const accountSid = String(credentials?.accountSid ?? '').trim();
	const authToken = String(credentials?.authToken ?? '');
	if (!accountSid || !authToken) {
		throw new NodeOperationError(
			this.getNode(),
			'The Twilio provider needs a "Twilio for Fliplet SMS API" credential',
			{
				description:
					'Select or create the "Twilio for Fliplet SMS API" credential (Account SID and Auth Token from the Twilio console), or choose the Platform Default provider.',
			},
		);
	}
	return { accountSid, authToken };
}

/** The API's Send SMS body for one item (Twilio options under their wire names `twilio_sid`, `twilio_auth_token`). Numbers checked before sending. */
export function buildSms(
	this: IExecuteFunctions,
	itemIndex: number,
	twilio?: TwilioSecrets,
): IDataObject {
	const to = phone(this, itemIndex, 'to', 'To');
	const body = String(this.getNodeParameter('message', itemIndex, '') ?? '');
	if (!body.trim()) refuseItem(this, itemIndex, '"Message" is empty', 'Write the text of the SMS.');
	if (!twilio) return { data: { to, body } };
	return {
		provider: 'twilio',
		data: { from: phone(this, itemIndex, 'from', 'From'), to, body },
		options: { twilio_sid: twilio.accountSid, twilio_auth_token: twilio.authToken },
	};
}

/** What the node outputs for a sent SMS: never the provider's credentials. */
export function sentSmsSummary(sms: IDataObject): IDataObject {
	const data = sms.data as IDataObject;
	const summary: IDataObject = {
		sent: true,
		provider: (sms.provider as string) ?? 'default',
		to: data.to,
	};
	if (data.from) summary.from = data.from;
	return summary;
}
