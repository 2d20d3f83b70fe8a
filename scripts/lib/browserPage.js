'use strict';
// Small helpers over a puppeteer page for the browser tier: elements found by n8n's data-test-id
// attributes or by their visible text, waits on conditions (never fixed sleeps), screenshots.

const fs = require('fs');
const path = require('path');

/**
 * How long a condition may take before the scenario fails: a guard against a hang, not a speed
 * check (scenario times are reported). On a machine loaded many times over its cores, the editor's
 * bundle alone takes tens of seconds to parse.
 */
const WAIT_MS = 90_000;

const testId = (id) => `[data-test-id="${id}"]`;

/** @param {import('puppeteer-core').Page} page */
function wrapPage(page, screenshotDir) {
	let shots = 0;
	page.setDefaultTimeout(WAIT_MS);
	page.setDefaultNavigationTimeout(WAIT_MS);
	const api = {
		page,
		testId,
		/** Saves a numbered screenshot and returns its file name. */
		async shot(name) {
			const file = path.join(screenshotDir, `${String(++shots).padStart(2, '0')}-${name}.png`);
			await page.screenshot({ path: file });
			return file;
		},
		/**
		 * Saves a picture the README shows, under its own name in `pictures/` (see
		 * scripts/lib/readmePictures.js): the element matching the selector, or the whole page.
		 */
		async picture(name, selector) {
			const file = path.join(screenshotDir, 'pictures', `${name}.png`);
			fs.mkdirSync(path.dirname(file), { recursive: true });
			const element = selector ? await api.find(selector) : page;
			await element.screenshot({ path: file });
			return file;
		},
		async goto(url) {
			await page.goto(url, { waitUntil: 'domcontentloaded' });
		},
		/** Waits for an element and returns it. */
		find(selector, timeout = WAIT_MS) {
			return page.waitForSelector(selector, { visible: true, timeout });
		},
		async click(selector) {
			await clickOnceSettled(() => api.find(selector), WAIT_MS);
		},
		/** The visible text of every element matching the selector. */
		texts(selector) {
			return page.$$eval(selector, (elements) =>
				elements.filter((el) => el.offsetParent !== null).map((el) => el.innerText.trim()),
			);
		},
		/** Waits until an element matching the selector shows the text (a string or RegExp). */
		async waitForText(selector, text, timeout = WAIT_MS) {
			const pattern = text instanceof RegExp ? text.source : escapeRegExp(text);
			const flags = text instanceof RegExp ? text.flags : '';
			try {
				await page.waitForFunction(
					(sel, source, fl) =>
						[...globalThis.document.querySelectorAll(sel)].some((el) =>
							new RegExp(source, fl).test(el.innerText ?? ''),
						),
					{ timeout, polling: 250 },
					selector,
					pattern,
					flags,
				);
			} catch (error) {
				const seen = (await api.texts(selector)).join(' | ').slice(0, 600);
				throw new Error(`"${text}" did not show in ${selector} (shows: ${seen || 'nothing'})`, {
					cause: error,
				});
			}
		},
		/** Waits until an input inside the element matching the selector holds the value. */
		async waitForValue(selector, value, timeout = WAIT_MS) {
			await page.waitForFunction(
				(sel, wanted) =>
					[...globalThis.document.querySelectorAll(`${sel} input`)].some(
						(input) => input.value === wanted,
					),
				{ timeout, polling: 250 },
				selector,
				value,
			);
		},
		/** Clicks the smallest visible element matching the selector whose text is `text`. */
		async clickText(selector, text, timeout = WAIT_MS) {
			await api.waitForText(selector, text, timeout);
			await clickOnceSettled(() => api.findText(selector, text), timeout);
		},
		/** The smallest visible element matching the selector whose text includes `text`. */
		async findText(selector, text) {
			const handle = await page.evaluateHandle(
				(sel, wanted) => {
					const matches = [...globalThis.document.querySelectorAll(sel)].filter(
						(el) => el.offsetParent !== null && (el.innerText ?? '').trim().includes(wanted),
					);
					return matches.sort((a, b) => a.innerText.length - b.innerText.length)[0];
				},
				selector,
				String(text),
			);
			const element = handle.asElement();
			if (!element) throw new Error(`No visible ${selector} with "${text}"`);
			return element;
		},
		/** Replaces the value of an input with typed text, as a person would. */
		async typeInto(selector, text) {
			const element = await api.find(selector);
			await element.click({ count: 3 });
			await page.keyboard.press('Backspace');
			await element.type(text);
		},
	};
	return api;
}

/**
 * The editor animates panels in and re-renders lists as results arrive, so an element found a
 * moment ago can be replaced or still sliding in when the click lands ("Node is either not
 * clickable or not an Element", "Node is detached from document"). A person clicks again on what
 * is there now; so does this, until the timeout.
 */
async function clickOnceSettled(findElement, timeout) {
	const deadline = Date.now() + timeout;
	for (;;) {
		try {
			const element = await findElement();
			await element.click();
			return;
		} catch (error) {
			if (!MOVING_ELEMENT.test(String(error?.message)) || Date.now() > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}
}

const MOVING_ELEMENT = /not clickable|detached|not an Element|No visible/;

function escapeRegExp(text) {
	return String(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

module.exports = { wrapPage, testId, WAIT_MS };
