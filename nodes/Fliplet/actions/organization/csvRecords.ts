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

const QUOTE = 0x22;
const COMMA = 0x2c;

/**
 * What makes a spreadsheet read a cell as a formula (CSV injection): `=`, `+`, `-`, `@`, a tab
 * or a carriage return first (OWASP's list), and the full-width `＝ ＋ － ＠` some spreadsheets
 * read the same way.
 */
const FORMULA_STARTS = new Set([
	'=',
	'+',
	'-',
	'@',
	'\t',
	'\r',
	'\uff1d',
	'\uff0b',
	'\uff0d',
	'\uff20',
]);

/** A number as a spreadsheet reads it (`-5`, `+1.5`, `2e3`): a value, never a formula. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Whether the cell from `start` to `end` (quoted or not) would run as a formula. */
function isFormulaCell(record: string, start: number, end: number): boolean {
	const quoted = record.charCodeAt(start) === QUOTE;
	const valueStart = quoted ? start + 1 : start;
	if (valueStart >= end || !FORMULA_STARTS.has(record[valueStart])) return false;
	const first = record[valueStart];
	if (first !== '+' && first !== '-') return true;
	const valueEnd =
		quoted && end - 1 > start && record.charCodeAt(end - 1) === QUOTE ? end - 1 : end;
	return !PLAIN_NUMBER.test(record.slice(valueStart, valueEnd));
}

/**
 * A CSV record whose cells a spreadsheet would run as formulas are shown as text instead: a `'`
 * goes before the formula (inside the quotes of a quoted cell), as OWASP advises. Plain numbers
 * such as `-5` stay numbers. One pass over the record, copying it in as few pieces as it can.
 */
export function neutralizeFormulaCells(record: string): string {
	const pieces: string[] = [];
	let copied = 0;
	let cellStart = 0;
	let quoted = false;
	for (let i = 0; i <= record.length; i++) {
		const char = i < record.length ? record.charCodeAt(i) : COMMA;
		if (char === QUOTE) quoted = !quoted;
		if (char !== COMMA || (quoted && i < record.length)) continue;
		if (isFormulaCell(record, cellStart, i)) {
			const valueStart = record.charCodeAt(cellStart) === QUOTE ? cellStart + 1 : cellStart;
			pieces.push(record.slice(copied, valueStart), "'");
			copied = valueStart;
		}
		cellStart = i + 1;
	}
	if (!pieces.length) return record;
	pieces.push(record.slice(copied));
	return pieces.join('');
}
