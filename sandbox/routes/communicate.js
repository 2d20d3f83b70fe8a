'use strict';

const { badRequest, isObject } = require('../http');

/**
 * Email and SMS sending. The API documents no response bodies for these four endpoints: the
 * sandbox answers `{success: true}` (single) and `{success: true, count}` (batch). Every send is
 * recorded in `state.sent.emails` / `state.sent.sms` exactly as received, so tests can assert it.
 */

const RECIPIENT_TYPES = ['to', 'cc', 'bcc'];
const EMAIL = /^[^\s@<>(),;:"[\]]+@[^\s@<>(),;:"[\]]+\.[^\s@<>(),;:"[\]]+$/;
const E164 = /^\+[1-9]\d{6,14}$/;

/** @param {unknown} email @param {string} where */
function checkEmail(email, where) {
	if (!isObject(email)) throw badRequest(`${where} must be an object.`);
	if (!Array.isArray(email.to) || email.to.length === 0) {
		throw badRequest(`${where}: "to" must be a non-empty array of {email, name, type}.`);
	}
	email.to.forEach((recipient, i) => {
		if (
			!isObject(recipient) ||
			typeof recipient.email !== 'string' ||
			!EMAIL.test(recipient.email)
		) {
			throw badRequest(`${where}: to[${i}] has no valid email address.`);
		}
		// The platform's own code sends a display name as `name` beside the address.
		if (recipient.name !== undefined && typeof recipient.name !== 'string') {
			throw badRequest(`${where}: to[${i}].name must be a string.`);
		}
		if (recipient.type !== undefined && !RECIPIENT_TYPES.includes(recipient.type)) {
			throw badRequest(`${where}: to[${i}].type must be one of ${RECIPIENT_TYPES.join(', ')}.`);
		}
	});
	if (email.headers !== undefined && !isObject(email.headers)) {
		throw badRequest(`${where}: "headers" must be an object.`);
	}
	if (email.attachments !== undefined) {
		if (!Array.isArray(email.attachments))
			throw badRequest(`${where}: "attachments" must be an array.`);
		email.attachments.forEach((attachment, i) => {
			if (
				!isObject(attachment) ||
				typeof attachment.name !== 'string' ||
				attachment.content === undefined
			) {
				throw badRequest(`${where}: attachments[${i}] needs a name and a content.`);
			}
		});
	}
}

/** @param {unknown} sms @param {string} where */
function checkSms(sms, where) {
	if (!isObject(sms) || !isObject(sms.data))
		throw badRequest(`${where}: "data" must be an object.`);
	const { data } = sms;
	if (typeof data.to !== 'string' || !E164.test(data.to)) {
		throw badRequest(`${where}: data.to must be a phone number in international format.`);
	}
	if (typeof data.body !== 'string' || data.body === '')
		throw badRequest(`${where}: data.body is required.`);
	if (sms.provider === undefined) return;
	if (sms.provider !== 'twilio')
		throw badRequest(`${where}: unknown SMS provider "${sms.provider}".`);
	const options = isObject(sms.options) ? sms.options : {};
	if (!options.twilio_sid || !options.twilio_auth_token) {
		throw badRequest(
			`${where}: the twilio provider needs options.twilio_sid and options.twilio_auth_token.`,
		);
	}
	if (typeof data.from !== 'string' || !E164.test(data.from)) {
		throw badRequest(`${where}: the twilio provider needs data.from in international format.`);
	}
}

/** @param {unknown} body @param {string} key */
function batchList(body, key) {
	const list = isObject(body) ? body[key] : undefined;
	if (!Array.isArray(list) || list.length === 0)
		throw badRequest(`"${key}" must be a non-empty array.`);
	return list;
}

const routes = [
	{
		method: 'POST',
		path: '/v1/communicate/email',
		area: 'communicate',
		handler: ({ state, body }) => {
			checkEmail(body, 'The email');
			state.sent.emails.push(body);
			return { body: { success: true } };
		},
	},
	{
		method: 'POST',
		path: '/v1/communicate/email/batch',
		area: 'communicate',
		handler: ({ state, body }) => {
			const emails = batchList(body, 'emails');
			emails.forEach((email, i) => checkEmail(email, `emails[${i}]`));
			state.sent.emails.push(...emails);
			return { body: { success: true, count: emails.length } };
		},
	},
	{
		method: 'POST',
		path: '/v1/communicate/sms',
		area: 'communicate',
		handler: ({ state, body }) => {
			checkSms(body, 'The SMS');
			state.sent.sms.push(body);
			return { body: { success: true } };
		},
	},
	{
		method: 'POST',
		path: '/v1/communicate/sms/batch',
		area: 'communicate',
		handler: ({ state, body }) => {
			const list = batchList(body, 'sms');
			list.forEach((sms, i) => checkSms(sms, `sms[${i}]`));
			state.sent.sms.push(...list);
			return { body: { success: true, count: list.length } };
		},
	},
];

module.exports = { routes };
