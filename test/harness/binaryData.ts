/* eslint-disable -- not published: n8n's node rules do not apply; eslint.dev.config.mjs lints this */
import { BinaryDataService } from 'n8n-core';

// n8n-core resolves its services from its own copy of the DI container.
const { Container } = require(
	require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] }),
) as {
	Container: { get<T>(type: new (...args: never[]) => T): T };
};

/**
 * Real n8n keeps binary data on disk and passes only an id in the item. Starts n8n-core's binary
 * data service (filesystem mode) before this file's tests; the getter gives the service, to read
 * what a node stored.
 */
export function useFilesystemBinaryData(): () => BinaryDataService {
	let service: BinaryDataService;
	beforeAll(async () => {
		service = Container.get(BinaryDataService);
		await service.init();
	});
	return () => service;
}
