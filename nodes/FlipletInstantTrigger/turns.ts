import type { Cursor } from '../FlipletTrigger/cursor';

/**
 * n8n loads a workflow's static data when a call arrives and saves it, whole, after the node has
 * answered: two calls handled together both start from the same saved record, and the later save
 * replaces the earlier one. So within one n8n process the calls of one activation take turns, and
 * each turn starts from the record the last turn left (held here until n8n has saved it, and longer:
 * a slower save of an older turn may land after a newer one's). Calls handled by other processes
 * (queue mode with webhook processes, multi-main) do not take turns with these: see
 * docs/triggers.md.
 */
interface Activation {
	/** The record the last successful turn left. */
	record?: Cursor;
	/** Settles when the last turn asked for has ended. */
	tail: Promise<void>;
	/** Turns asked for and not ended. */
	waiting: number;
}

/** The most activations remembered; the least recently used idle ones are forgotten first. */
const MOST_ACTIVATIONS = 200;

const activations = new Map<string, Activation>();

function activationOf(key: string): Activation {
	const known = activations.get(key);
	if (known) {
		// Most recently used last, so the oldest idle activations are forgotten first.
		activations.delete(key);
		activations.set(key, known);
		return known;
	}
	const fresh: Activation = { tail: Promise.resolve(), waiting: 0 };
	activations.set(key, fresh);
	for (const [oldKey, old] of activations) {
		if (activations.size <= MOST_ACTIVATIONS) break;
		if (old.waiting === 0 && oldKey !== key) activations.delete(oldKey);
	}
	return fresh;
}

/**
 * Runs `turn` once the turns asked for before it by this activation (`key`) in this process have
 * ended, with the record the last successful one left. The record `turn` returns is held for the
 * next turn; a turn that fails leaves the held record as it was.
 */
export async function takeTurn<T>(
	key: string,
	turn: (held: Cursor | undefined) => Promise<{ result: T; record: Cursor }>,
): Promise<T> {
	const activation = activationOf(key);
	const before = activation.tail;
	let end!: () => void;
	activation.tail = new Promise<void>((resolve) => (end = resolve));
	activation.waiting++;
	try {
		await before;
		const { result, record } = await turn(activation.record);
		activation.record = record;
		return result;
	} finally {
		activation.waiting--;
		end();
	}
}

/** Forgets what this process holds for an activation (unpublished). */
export function forgetTurns(key: string): void {
	activations.delete(key);
}
