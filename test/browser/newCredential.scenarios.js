'use strict';
// Browser tier: a newcomer adds a Fliplet API credential from the credentials page, as the
// README's first step says. The form asks for the token, the region (Automatic) and the plan; the
// rest waits behind Advanced Settings. The README shows this form (picture "credential").

const assert = require('assert/strict');

const { shownCredentialFields } = require('./pickerScenarios');
const { steps } = require('./scenarios');

const { closeDialog } = steps;

const scenarios = [
	{
		name: 'new credential: Fliplet API asks for the token, region and plan',
		async run(t) {
			await t.goto(`${t.editorUrl}/home/credentials`);
			await t.click(t.testId('add-resource-credential'));
			await t.find(t.testId('selectCredential-modal'));
			await t.click(`${t.testId('new-credential-type-select')} input`);
			await t.page.keyboard.type('Fliplet API');
			// The list filters as letters arrive: pick the option by its text once it shows alone.
			await t.page.waitForFunction(
				(selector) => {
					const shown = [...globalThis.document.querySelectorAll(selector)].filter(
						(option) => option.offsetParent !== null,
					);
					return shown.length === 1 && shown[0].innerText.trim() === 'Fliplet API';
				},
				{ polling: 250 },
				t.testId('new-credential-type-select-option'),
			);
			// A click at the option's place can land on the one a re-render put there instead.
			await t.page.$$eval(t.testId('new-credential-type-select-option'), (options) =>
				options.find((option) => option.innerText.trim() === 'Fliplet API').click(),
			);
			// The select shows what was picked in its input (n8n 2.x) or as its text.
			await t.page.waitForFunction(
				(selector) => {
					const select = globalThis.document.querySelector(selector);
					const shown = `${select?.innerText ?? ''} ${select?.querySelector('input')?.value ?? ''}`;
					return shown.includes('Fliplet API');
				},
				{ polling: 250 },
				t.testId('new-credential-type-select'),
			);
			await t.click(t.testId('new-credential-type-button'));
			await t.find(t.testId('parameter-input-accessToken'));
			assert.deepEqual(await shownCredentialFields(t), [
				'accessToken',
				'region',
				'aiPlan',
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
