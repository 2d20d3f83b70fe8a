/** The trimmed, non-empty parts of a comma-separated text ("a, b,,c" → a, b, c); [] for nothing. */
export function splitList(text: unknown): string[] {
	return String(text ?? '')
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean);
}

/**
 * The column names a column picker holds: its list (each name kept exactly as picked, commas and
 * surrounding spaces included), or the comma-separated text workflows saved before the field was
 * a picker (and expressions) give, trimmed.
 */
export function columnList(value: unknown): string[] {
	if (!Array.isArray(value)) return splitList(value);
	return value.map((name) => String(name ?? '')).filter((name) => name.trim() !== '');
}
