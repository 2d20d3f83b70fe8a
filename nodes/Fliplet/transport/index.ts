export {
	apiPath,
	CREDENTIAL_NAME,
	flipletApiRequest,
	type FlipletContext,
	type FlipletRequest,
	type PaceWait,
} from './request';
export { AI_LIMITS } from './rateLimits';
export { withRunScope } from './abort';
export { tokenKey } from './tokenKey';
export { credentialKey } from './credentialKey';
export {
	collectPages,
	offsetPages,
	PageNotAdvancingError,
	PAGES_AHEAD,
	stablePages,
	type OrderedPage,
	type PageRequest,
	type ReadOrder,
	type StablePage,
} from './paginate';
export { JsonBody, jsonBodyOf } from './jsonBody';
export { isUnsendablePathSegment, UnsendablePathSegmentError } from './pathSegments';
export { buildMultipartBody, type MultipartFile, type MultipartField } from './multipart';
export { resolveBaseUrl, regionFromToken, isSafeBaseUrl, REGION_HOSTS } from './baseUrl';
export { streamedMultipart, type StreamedFile, type StreamedMultipart } from './multipartStream';
export type { ReadableBytes } from './streams';
export {
	downloadBinary,
	FileNotFetchedError,
	FileTimedOutError,
	FileTooLargeError,
	type DownloadContext,
	type DownloadedFile,
	type FileDownloadRequest,
} from './download';
export { fileHostsOf, locateFile, REGION_FILE_HOSTS, type FileHosts } from './fileHosts';
