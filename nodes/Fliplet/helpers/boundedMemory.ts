/**
 * Stores `value` under `key` in a per-process memory that holds at most `most` keys: the key
 * becomes the newest, and past the bound the oldest one is forgotten. For memories that only spare
 * requests (a forgotten key costs a request, never a result), so their size stays bounded however
 * many credentials, data sources or tokens a long-running n8n meets.
 */
export function rememberBounded<K, V>(memory: Map<K, V>, key: K, value: V, most: number): void {
	memory.delete(key);
	memory.set(key, value);
	if (memory.size > most) memory.delete(memory.keys().next().value as K);
}
