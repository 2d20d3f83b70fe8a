'use strict';

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
				},
			};
		},
	},
];

module.exports = { routes };
