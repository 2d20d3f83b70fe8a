import { callSandbox, TOKENS, type Sandbox } from '../harness';

export const APP = { __rl: true, mode: 'id', value: '11' };
export const ORG = { __rl: true, mode: 'id', value: '1' };

/** A folder made through the media API (organization token): in app 11, or in a parent folder. */
export async function makeFolder(
	sandbox: Sandbox,
	name: string,
	where: Record<string, number> = { appId: 11 },
): Promise<{ id: number; name: string }> {
	const answer = await callSandbox(
		sandbox,
		'POST',
		'/v1/media/folders',
		{ name, ...where },
		TOKENS.org,
	);
	expect(answer.status).toBe(200);
	return answer.body;
}

/** A file uploaded through the media API (organization token), as Studio's File Manager does. */
export async function uploadFile(
	sandbox: Sandbox,
	where: string,
	name: string,
	bytes: Buffer,
	type = 'image/png',
): Promise<{ id: number; url: string; name: string }> {
	const form = new FormData();
	form.append('name[0]', name);
	form.append('files[0]', new Blob([bytes], { type }), name);
	const answer = await callSandbox(sandbox, 'POST', `/v1/media/files?${where}`, form, TOKENS.org);
	expect(answer.status).toBe(201);
	return answer.body.files[0];
}
