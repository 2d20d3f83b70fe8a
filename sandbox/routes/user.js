'use strict';

/** The API host of each region; `GET /v1/user` answers the one of the token's region. */
const REGION_HOSTS = {
	eu: 'https://api.fliplet.com/',
	us: 'https://us.api.fliplet.com/',
	ca: 'https://ca.api.fliplet.com/',
};

const routes = [
	{
		method: 'GET',
		path: '/v1/user',
		handler: ({ state, principal }) => {
			const user = state.users.find((u) => u.id === principal.userId);
			return {
				body: {
					user: user ?? {
						id: principal.userId,
						fullName: principal.name,
						firstName: principal.name,
						lastName: null,
						email: `token-${principal.userId}@tokens.example.com`,
					},
					// The platform's VS Code extension switches to this host after signing in.
					host: REGION_HOSTS[state.region] ?? REGION_HOSTS.eu,
				},
			};
		},
	},
];

module.exports = { routes };
