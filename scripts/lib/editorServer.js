'use strict';
// `n8n start` for an instance: owner account created from environment settings (no setup screen),
// readiness wait, and a logged-in REST client.

const path = require('path');

const { paths, N8N_MAJOR } = require('../install-n8n');

const OWNER = {
	email: 'owner@example.com',
	password: 'Fliplet-Sandbox-1',
	firstName: 'Sandbox',
	lastName: 'Owner',
};

/** n8n 2.x creates (or updates) the owner at start-up from these settings (1.x: see login). */
function ownerSettings(owner = OWNER) {
	if (N8N_MAJOR < 2) return {};
	const bcrypt = require(path.join(paths().dir, 'node_modules', 'bcryptjs'));
	return {
		N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
		N8N_INSTANCE_OWNER_EMAIL: owner.email,
		N8N_INSTANCE_OWNER_FIRST_NAME: owner.firstName,
		N8N_INSTANCE_OWNER_LAST_NAME: owner.lastName,
		N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(owner.password, 10),
	};
}

async function waitUntilReady(baseUrl, child, timeoutMs = 180_000) {
	const deadline = Date.now() + timeoutMs;
	let exited = false;
	child.once('exit', () => (exited = true));
	while (Date.now() < deadline) {
		if (exited) throw new Error('n8n stopped while starting');
		try {
			const response = await fetch(`${baseUrl}/healthz/readiness`);
			if (response.ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`n8n did not become ready on ${baseUrl} within ${timeoutMs / 1000} s`);
}

/**
 * n8n 1.x creates the owner through the setup screen's route. It answers 404 for a moment after
 * /healthz/readiness (its REST routes are mounted later), 503 while its database is busy, and 400
 * once an owner exists.
 */
async function setUpOwner(baseUrl, owner, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const response = await fetch(`${baseUrl}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(owner),
		}).catch((error) => ({ status: 0, text: async () => error.message }));
		const text = await response.text();
		if (response.ok || (response.status === 400 && /already set ?up/i.test(text))) return;
		if (![0, 404, 503].includes(response.status) || Date.now() > deadline) {
			throw new Error(`owner setup failed: ${response.status} ${text}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** A REST client holding the owner's session cookie. */
async function login(baseUrl, owner = OWNER) {
	if (N8N_MAJOR < 2) await setUpOwner(baseUrl, owner);
	const response = await fetch(`${baseUrl}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
	});
	if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
	const cookie = (response.headers.getSetCookie?.() ?? [])
		.map((value) => value.split(';')[0])
		.join('; ');
	return {
		async request(method, route, body) {
			const reply = await fetch(`${baseUrl}${route}`, {
				method,
				headers: { cookie, 'content-type': 'application/json', 'browser-id': 'fliplet-e2e' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await reply.text();
			if (!reply.ok) throw new Error(`${method} ${route}: ${reply.status} ${text}`);
			return text ? JSON.parse(text) : undefined;
		},
	};
}

/** Stops a server started by startServer and waits for it to exit. */
function stopServer(child) {
	if (child.exitCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		child.once('exit', () => resolve(undefined));
		child.kill('SIGTERM');
		setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 20_000).unref();
	});
}

module.exports = { OWNER, ownerSettings, waitUntilReady, login, stopServer };
