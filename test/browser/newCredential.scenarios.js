'use strict';
// Browser tier: a newcomer adds a Fliplet API credential from the credentials page, as the
// README's first step says. The form asks for the token and the region (Automatic); the rest, the
// plan first, waits behind Advanced Settings. The README shows this form (picture "credential").

const assert = require('assert/strict');

const { shownCredentialFields } = require('./pickerScenarios');
const { steps } = require('./scenarios');

const { closeDialog } = steps;

/**
 * Picks a credential type in n8n's "Add new credential" select, typing its name to filter the list.
 * Another option can end up picked (a re-render moves the list under the click, or the typed
 * letters reach the list before the filter does), so the pick is checked with the list closed and
 * made again, up to three times.
 */
async function pickCredentialType(t, name) {
	const select = t.testId('new-credential-type-select');
	const option = t.testId('new-credential-type-select-option');
	for (let attempt = 1; ; attempt++) {
		await t.click(`${select} input`);
		await t.page.keyboard.down('Control');
		await t.page.keyboard.press('KeyA');
		await t.page.keyboard.up('Control');
		await t.page.keyboard.press('Backspace');
		await t.page.keyboard.type(name);
		// The list filters as letters arrive: pick the option by its text once it shows alone.
		await t.page.waitForFunction(
			(selector, wanted) => {
				const shown = [...globalThis.document.querySelectorAll(selector)].filter(
					(element) => element.offsetParent !== null,
				);
				return shown.length === 1 && shown[0].innerText.trim() === wanted;
			},
			{ polling: 250 },
			option,
			name,
		);
		await t.page.$$eval(
			option,
			(options, wanted) => options.find((element) => element.innerText.trim() === wanted).click(),
			name,
		);
		// Picked: the list is closed and the select shows the name (in its input on n8n 2.x).
		const picked = await t.page
			.waitForFunction(
				(selectSelector, optionSelector, wanted) => {
					const open = [...globalThis.document.querySelectorAll(optionSelector)].some(
						(element) => element.offsetParent !== null,
					);
					const element = globalThis.document.querySelector(selectSelector);
					const value = element?.querySelector('input')?.value?.trim() ?? '';
					const text = element?.innerText?.trim() ?? '';
					return !open && (value === wanted || (value === '' && text === wanted));
				},
				{ polling: 250, timeout: 5000 },
				select,
				option,
				name,
			)
			.then(
				() => true,
				() => false,
			);
		if (picked) return;
		if (attempt === 3) throw new Error(`the credential type select did not keep "${name}"`);
	}
}

const scenarios = [
	{
		name: 'new credential: Fliplet API asks for the token and the region',
		async run(t) {
			await t.goto(`${t.editorUrl}/home/credentials`);
			await t.click(t.testId('add-resource-credential'));
			await t.find(t.testId('selectCredential-modal'));
			await pickCredentialType(t, 'Fliplet API');
			await t.click(t.testId('new-credential-type-button'));
			await t.find(t.testId('parameter-input-accessToken'));
			assert.deepEqual(await shownCredentialFields(t), [
				'accessToken',
				'region',
				'advancedSettings',
			]);
			await t.waitForValue(t.testId('parameter-input-region'), 'Automatic (From the Token Prefix)');
			await t.picture('credential', `.el-dialog:has(${t.testId('parameter-input-accessToken')})`);
			// Nothing typed, nothing to keep: the dialog closes without saving.
			await closeDialog(t, 'credential-edit-dialog');
		},
	},
];

module.exports = { scenarios };
