export {
  type AllowList,
  type AddressVerdict,
  isAllowed,
  isBlockedAddress,
  parseFetchAllow,
} from './address-rules.js';
export {
  type FetchedPage,
  type FetchPageOptions,
  FETCH_DEFAULTS,
  fetchPage,
} from './fetch-page.js';
export { type ResolvedAddress, type Resolver, systemResolver } from './guarded-lookup.js';
export {
  createWebFetchTool,
  type WebFetchArgs,
  type WebFetchResult,
  type WebFetchToolOptions,
  webFetchTool,
} from './web-fetch-tool.js';
export {
  createWebSearchTool,
  type SearchEnv,
  type WebSearchArgs,
  type WebSearchResult,
  type WebSearchToolOptions,
  webSearchUnavailableNote,
} from './web-search-tool.js';
