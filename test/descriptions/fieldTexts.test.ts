/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { TwilioForFlipletApi } from '../../credentials/TwilioForFlipletApi.credentials';
import { FLIPLET_NODE, nodeTypes, packageNodeTypes } from '../harness';
import { credentialTypes } from '../harness/packageTypes';

const description = () => nodeTypes.getByName(FLIPLET_NODE).description;

/** The field `name` of the operation, searched through collections and fixed collections. */
function field(name: string, operation: string, resource: string): any {
	const matches = (property: INodeProperties) =>
		(property.displayOptions?.show?.operation as string[] | undefined)?.includes(operation) &&
		(property.displayOptions?.show?.resource as string[] | undefined)?.includes(resource);
	const nested = (list: any[]): any => {
		for (const item of list) {
			if (item.name === name) return item;
			const inner = item.values ?? item.options;
			if (Array.isArray(inner) && typeof inner[0] === 'object') {
				const found = nested(inner);
				if (found) return found;
			}
		}
		return undefined;
	};
	return nested(description().properties.filter(matches));
}

const allTexts = (value: unknown): string[] =>
	typeof value === 'string'
		? [value]
		: Array.isArray(value)
			? value.flatMap(allTexts)
			: value && typeof value === 'object'
				? Object.values(value).flatMap(allTexts)
				: [];

describe('Field texts', () => {
	it('the resource picker says "App Analytics"', () => {
		const resource = description().properties.find((p) => p.name === 'resource')!;
		expect(resource.options).toContainEqual({ name: 'App Analytics', value: 'appAnalytics' });
	});

	it('Entry → Commit explains inserts and updates in the shape the node outputs entries', () => {
		const entries = field('entries', 'commit', 'entry');
		expect(JSON.parse(entries.placeholder)).toEqual([{ data: { Name: 'New' }, clientId: 'a1' }]);
		expect(entries.description).toMatch(/only "data" .* is inserted/);
		expect(entries.description).toMatch(/add its entry ID next to "data"/);
		expect(entries.description).toMatch(/the way Get and Get Many output entries/);
		// n8n's scanner wants "ID" in texts; a raw key in lowercase would be flagged.
		expect(`${entries.placeholder} ${entries.description}`).not.toMatch(/\b[iI]ds?\b/);
	});

	it('Email → Send explains that "Queue When Offline" is about offline devices', () => {
		const required = field('required', 'send', 'email');
		expect(required.displayName).toBe('Queue When Offline');
		expect(required.description).toMatch(/offline on a device/);
		expect(required.description).toMatch(/usually irrelevant/);
	});

	it('no field text holds a tab character', () => {
		const texts = allTexts(description().properties);
		expect(texts.length).toBeGreaterThan(100);
		expect(texts.filter((text) => text.includes('\t'))).toEqual([]);
	});

	it('Data Source → Get Many / Create pick the organization with the shared organization locator', () => {
		for (const operation of ['getMany', 'create']) {
			const organization = field('organizationId', operation, 'dataSource');
			expect(organization.type).toBe('resourceLocator');
			expect(organization.modes.map((mode: any) => mode.name)).toEqual(['list', 'id']);
			expect(organization.modes[0].typeOptions.searchListMethod).toBe('searchOrganizations');
		}
	});

	it('Notification → Update offers "Keep Current" as the default status', () => {
		const status = field('status', 'update', 'notification');
		expect(status.default).toBe('keep');
		expect(status.options.map((option: any) => option.value)).toEqual([
			'draft',
			'keep',
			'published',
			'scheduled',
		]);
		const createStatus = field('status', 'create', 'notification');
		expect(createStatus.options.map((option: any) => option.value)).not.toContain('keep');
	});
});

/**
 * Every text n8n renders as HTML in the editor (descriptions, hints, option descriptions, notices),
 * with where it sits, from every node and credential of the package.
 */
function renderedTexts(properties: unknown[], where: string): Array<[string, string]> {
	const texts: Array<[string, string]> = [];
	const visit = (value: unknown, path: string) => {
		if (Array.isArray(value)) {
			value.forEach((entry, index) => visit(entry, `${path}[${index}]`));
			return;
		}
		if (!value || typeof value !== 'object') return;
		const record = value as Record<string, unknown>;
		const label = `${path} ${String(record.name ?? record.displayName ?? '')}`.trim();
		for (const key of ['description', 'hint']) {
			if (typeof record[key] === 'string') texts.push([`${label} (${key})`, record[key] as string]);
		}
		if (record.type === 'notice' && typeof record.displayName === 'string') {
			texts.push([`${label} (notice)`, record.displayName]);
		}
		for (const key of ['options', 'values']) visit(record[key], `${label} >`);
	};
	visit(properties, where);
	return texts;
}

/** Tags n8n keeps when it renders a description; anything else between < and > is stripped. */
const KEPT_TAGS = /^<\/?(a|b|i|em|strong|code|br|p|ul|ol|li)(\s[^>]*)?\/?>$/i;

/** What n8n shows differently than written, with the reason, or undefined when the text is fine. */
function renderingProblem(text: string): string | undefined {
	const tag = (text.match(/<\/?[A-Za-z!][^<>]*>/g) ?? []).find((match) => !KEPT_TAGS.test(match));
	if (tag) return `${tag} looks like HTML and is stripped`;
	const withoutKeptTags = text.replace(/<\/?[A-Za-z!][^<>]*>/g, '');
	if (/<[A-Za-z!/]/.test(withoutKeptTags))
		return 'a "<" before a letter starts what n8n reads as a tag';
	if (text.includes('`')) return 'backticks are shown as they are (no Markdown)';
	if (/\*\*|\]\(/.test(text)) return 'Markdown is shown as it is';
	if (text.startsWith('=')) return 'a text starting with "=" is read as an expression';
	return undefined;
}

describe('Texts n8n renders as HTML', () => {
	let sources: Array<[string, unknown[]]>;

	beforeAll(async () => {
		const nodes = await packageNodeTypes();
		sources = [
			...nodes.map((node): [string, unknown[]] => [
				node.description.name,
				node.description.properties,
			]),
			...nodes.map((node): [string, unknown[]] => [
				`${node.description.name} (node)`,
				[{ name: 'description', description: node.description.description }],
			]),
			...Object.values(credentialTypes).map((type): [string, unknown[]] => [
				type.name,
				type.properties,
			]),
			['twilioForFlipletApi', new TwilioForFlipletApi().properties],
		];
	});

	it('no description, hint or notice holds HTML-like text, Markdown or a leading "="', () => {
		const texts = sources.flatMap(([where, properties]) => renderedTexts(properties, where));
		expect(texts.length).toBeGreaterThan(300);
		const problems = texts
			.map(([where, text]) => ({ where, text, problem: renderingProblem(text) }))
			.filter(({ problem }) => problem);
		expect(problems).toEqual([]);
	});

	it.each([
		['Display names ("Ann <ann@example.com>") are not accepted', /looks like HTML/],
		['Use `{{ $json.id }}`', /backticks/],
		['See [the docs](https://example.com)', /Markdown/],
		['=Hello', /expression/],
		[
			'a <b>bold</b> word, a <code>code</code> and <a href="https://example.com">a link</a>',
			undefined,
		],
		['1 < 2 and 3 > 2', undefined],
	])('the check itself: %j', (text, problem) => {
		const found = renderingProblem(text);
		if (problem) expect(found).toMatch(problem);
		else expect(found).toBeUndefined();
	});
});

describe('Texts in the source that n8n shows as HTML (error descriptions too)', () => {
	const root = path.resolve(__dirname, '../..');
	const sourceFiles = (dir: string): string[] =>
		readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
			entry.isDirectory()
				? sourceFiles(path.join(dir, entry.name))
				: entry.name.endsWith('.ts')
					? [path.join(dir, entry.name)]
					: [],
		);

	it('no string in the nodes or credentials holds an address in angle brackets or an HTML entity', () => {
		const files = [
			...sourceFiles(path.join(root, 'nodes')),
			...sourceFiles(path.join(root, 'credentials')),
		];
		const found = files.flatMap((file) => {
			const source = readFileSync(file, 'utf8');
			const strings =
				source.match(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g) ?? [];
			return strings
				.filter((text) => /<[^<>\s]+@[^<>\s]+>|&[a-z]+;/i.test(text))
				.map((text) => `${path.relative(root, file)}: ${text}`);
		});
		expect(found).toEqual([]);
	});
});
