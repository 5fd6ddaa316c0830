/**
 * The store's public face. Importing it is cheap: Kysely and the database
 * drivers load inside openStore(), on first use.
 */
export type * from './types.js';
export type { KyselyStore } from './kysely-store.js';
export {
  openStore,
  parseStoreUrl,
  DEFAULT_SQLITE_PATH,
  type OpenStoreOptions,
} from './open-store.js';
export { canonicalHash, canonicalJson } from '../util/canonical-json.js';
export { sha256Hex } from '../util/sha256.js';
export { normaliseRecipient } from './recipient.js';
/** For a store of one's own: a run's state column, read (checked, upgraded) when asked. */
export { storedRunState } from './stored-run-state.js';
