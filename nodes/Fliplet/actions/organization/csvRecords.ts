/**
 * Splits CSV text into its records (raw text, without line ends). Line breaks inside quoted
 * values stay in their record, so pages of a CSV export can be counted and joined safely.
 */
export function splitCsvRecords(text: string): string[] {
	const records: string[] = [];
	let start = 0;
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (char === '"') quoted = !quoted;
		else if (char === '\n' && !quoted) {
			records.push(text.slice(start, text[i - 1] === '\r' ? i - 1 : i));
			start = i + 1;
		}
	}
	if (start < text.length) records.push(text.slice(start));
	return records.filter((record) => record !== '');
}
