/** The published Staff Directory app (draft 10), which the sandbox's app token reaches. */
export const PUBLISHED_APP = { __rl: true, mode: 'id', value: '11' };
export const DRAFT_APP = { __rl: true, mode: 'id', value: '10' };

export const COMPLETIONS = /^\/v1\/apps\/\d+\/ai\/completions$/;
export const IMAGE = /^\/v1\/apps\/\d+\/ai\/image$/;
export const AUDIO = /^\/v1\/apps\/\d+\/ai\/audio$/;
export const EMBEDDINGS = /^\/v1\/apps\/\d+\/ai\/embeddings$/;
