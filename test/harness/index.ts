export { runNode, nodeTypes, FLIPLET_NODE, type RunOptions, type RunResult } from './engine';
export {
	useSandbox,
	resetSandbox,
	createSandbox,
	sandboxCredential,
	apiRequests,
	TOKENS,
	type CdnRequest,
	type Sandbox,
	type SandboxFault,
	type SandboxRequest,
} from './sandbox';
export { arrivalOf, onSandboxRequest, faultNthRequest } from './sandboxEvents';
export {
	flipletTestNodeDescription,
	registerNodeType,
	registerCredentialType,
} from './packageTypes';
export type { TestItem, TestBinary } from './testInput.node';
export {
	resolveCredentialExpression,
	testCredential,
	packageNodeTypes,
	type CredentialTestOutcome,
} from './credentialTester';
export {
	runListSearch,
	loadOptionsContext,
	type ListSearchOptions,
	type LoadOptionsContextOptions,
} from './listSearch';
export { useFilesystemBinaryData } from './binaryData';
export { callSandbox, RawJson } from './sandboxHttp';
export {
	setSandboxReadings,
	COLUMN_READINGS,
	DEFAULT_READINGS,
	DELETE_READINGS,
	FOREIGN_ATTRIBUTE_READINGS,
	NOTIFICATION_UPDATE_READINGS,
	HOOK_TEMPLATE_READINGS,
	MEDIA_LIST_READINGS,
	ONEOF_READINGS,
	SYNC_READINGS,
	type SandboxReadings,
} from './readings';
export {
	WebhookHost,
	FLIPLET_INSTANT_TRIGGER,
	type WebhookCall,
	type WebhookExecution,
} from './webhook';
export { recordGuardedRegex } from './guardedRegex';
export { publishApp11 } from './parameters';
