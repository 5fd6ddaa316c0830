// `cadre/store-conformance`: the suite a Store backend runs to prove itself (needs vitest and kysely).
export { describeStoreConformance } from './store-conformance.js';
export type { OpenFixture, StoreFixture } from './conformance-store.js';
