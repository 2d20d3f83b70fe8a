/** The trimmed, non-empty parts of a comma-separated text ("a, b,,c" → a, b, c); [] for nothing. */
export function splitList(text: unknown): string[] {
	return String(text ?? '')
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean);
}
