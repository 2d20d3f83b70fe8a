/**
 * The requests a run sent, as the API received them: every attempt counts (a read sent again
 * after a fault, a request sent again after a 429), a page asked for ahead that never went out
 * (the read ended while it waited for a place in the rate limit) does not.
 */
export interface RequestCount {
	requests: number;
}

/** The transport's hook that counts each attempt of a request into `counter` as it goes out. */
export const countedIn = (counter: RequestCount) => ({
	onSent: () => {
		counter.requests++;
	},
});
