import type { Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The caller's own Twilio account for Fliplet's SMS sending. It authenticates nothing by itself:
 * the Fliplet node puts the SID and token in the SMS request body (`options.twilio_sid`,
 * `options.twilio_auth_token`), so they are stored encrypted here instead of in node fields.
 */
export class TwilioForFlipletApi implements ICredentialType {
	name = 'twilioForFlipletApi';

	displayName = 'Twilio for Fliplet SMS API';

	icon: Icon = { light: 'file:../icons/fliplet.svg', dark: 'file:../icons/fliplet.dark.svg' };

	documentationUrl = 'https://developers.fliplet.com/REST-API/fliplet-communicate.html';

	properties: INodeProperties[] = [
		{
			displayName: 'Account SID',
			name: 'accountSid',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. AC0123456789abcdef0123456789abcdef',
			description: 'The Account SID shown on the Twilio console dashboard',
		},
		{
			displayName: 'Auth Token',
			name: 'authToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The Auth Token shown next to the Account SID on the Twilio console dashboard',
		},
	];

	/**
	 * Twilio's own account endpoint answers 200 only for a matching SID and token (basic auth), and
	 * sends nothing. The only call to Twilio: Fliplet's SMS route has no dry run (a check through it
	 * would send an SMS), and a credential test sees only its own fields, not the Fliplet token.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: 'https://api.twilio.com',
			url: '=/2010-04-01/Accounts/{{ encodeURIComponent($credentials.accountSid) }}.json',
			method: 'GET',
			auth: {
				username: '={{ $credentials.accountSid }}',
				password: '={{ $credentials.authToken }}',
			},
		},
	};
}
