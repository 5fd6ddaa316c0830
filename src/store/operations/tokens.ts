import type { Kysely } from 'kysely';
import type { ListedToken } from '../records.js';
import { toListedToken } from '../rows.js';
import type { Database } from '../schema/database.js';
import { now, writeTransaction, type StoreContext } from '../store-context.js';
import { MIN_TOKEN_PREFIX } from '../token-prefix.js';
import type { RevokeTokenResult, TokenFilter } from '../types.js';

/** Candidates named in an "ambiguous" answer; more add nothing to "type more characters". */
const MAX_MATCHES = 10;

const HEX_PREFIX = new RegExp(`^[0-9a-f]{${MIN_TOKEN_PREFIX},64}$`);

function listed(db: Kysely<Database>) {
  return db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'api_tokens.id',
      'api_tokens.user_id',
      'api_tokens.token_hash',
      'api_tokens.created_at',
      'api_tokens.last_used_at',
      'api_tokens.revoked_at',
      'users.name as user_name',
    ]);
}

export async function listTokens(
  context: StoreContext,
  filter: TokenFilter,
  signal?: AbortSignal,
): Promise<ListedToken[]> {
  let query = listed(context.db);
  if (filter.userId !== undefined) query = query.where('api_tokens.user_id', '=', filter.userId);
  if (filter.userName !== undefined) query = query.where('users.name', '=', filter.userName);
  // Ids are time-ordered: oldest first.
  const rows = await query.orderBy('api_tokens.id').execute({ signal });
  return rows.map(toListedToken);
}

/**
 * Marks one token revoked, named by its id or a hex prefix of its hash.
 * Prefixes only ever hold hex digits, so they cannot carry LIKE wildcards,
 * and never match an id (those have dashes). Revoking twice keeps the
 * first time.
 */
export async function revokeToken(
  context: StoreContext,
  idOrPrefix: string,
  signal?: AbortSignal,
): Promise<RevokeTokenResult> {
  const wanted = idOrPrefix.trim().toLowerCase();
  return writeTransaction(
    context,
    async (db) => {
      const matches = await listed(db)
        .where((eb) =>
          HEX_PREFIX.test(wanted)
            ? eb.or([
                eb('api_tokens.id', '=', wanted),
                eb('api_tokens.token_hash', 'like', `${wanted}%`),
              ])
            : eb('api_tokens.id', '=', wanted),
        )
        .orderBy('api_tokens.id')
        .limit(MAX_MATCHES)
        .execute();
      const [match] = matches;
      if (match === undefined) return { ok: false, reason: 'not_found' };
      if (matches.length > 1)
        return { ok: false, reason: 'ambiguous', matches: matches.map(toListedToken) };
      const time = now();
      const updated = await db
        .updateTable('api_tokens')
        .set({ revoked_at: time })
        .where('id', '=', match.id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      const alreadyRevoked = Number(updated.numUpdatedRows) === 0;
      return {
        ok: true,
        alreadyRevoked,
        token: toListedToken({ ...match, revoked_at: match.revoked_at ?? time }),
      };
    },
    signal,
  );
}
