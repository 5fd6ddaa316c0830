import { randomBytes } from 'node:crypto';
import type { ApiToken, User } from '../records.js';
import { toApiToken, toUser } from '../rows.js';
import { sha256Hex } from '../../util/sha256.js';
import { now, type StoreContext } from '../store-context.js';

/** lastUsedAt is refreshed at most this often, so authenticating stays a read. */
const LAST_USED_GRANULARITY_MS = 60_000;

export async function ensureUser(
  context: StoreContext,
  name: string,
  signal?: AbortSignal,
): Promise<User> {
  signal?.throwIfAborted();
  await context.db
    .insertInto('users')
    .values({ id: context.newId(), name, created_at: now() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await context.db
    .selectFrom('users')
    .selectAll()
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return toUser(row);
}

export async function createToken(
  context: StoreContext,
  userId: string,
  signal?: AbortSignal,
): Promise<{ token: string; record: ApiToken }> {
  signal?.throwIfAborted();
  // 256 random bits: no need for a slow hash, and lookups stay an index hit.
  const token = `cadre_${randomBytes(32).toString('base64url')}`;
  const row = {
    id: context.newId(),
    user_id: userId,
    token_hash: sha256Hex(token),
    created_at: now(),
    last_used_at: null,
    revoked_at: null,
  };
  await context.db.insertInto('api_tokens').values(row).execute();
  return { token, record: toApiToken(row) };
}

export async function findUserByToken(
  context: StoreContext,
  token: string,
  signal?: AbortSignal,
): Promise<User | undefined> {
  const found = await context.db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'users.id',
      'users.name',
      'users.created_at',
      'api_tokens.id as token_id',
      'api_tokens.last_used_at',
    ])
    .where('api_tokens.token_hash', '=', sha256Hex(token))
    .where('api_tokens.revoked_at', 'is', null)
    .executeTakeFirst({ signal });
  if (found === undefined) return undefined;
  const time = now();
  const stale =
    found.last_used_at === null ||
    Date.parse(found.last_used_at) < Date.parse(time) - LAST_USED_GRANULARITY_MS;
  if (stale)
    await context.db
      .updateTable('api_tokens')
      .set({ last_used_at: time })
      .where('id', '=', found.token_id)
      .execute();
  return toUser(found);
}
