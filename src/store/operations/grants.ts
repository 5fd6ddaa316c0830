import type { Grant, NamedGrant } from '../records.js';
import { normaliseRecipient } from '../recipient.js';
import { toGrant } from '../rows.js';
import { now, writeTransaction, type StoreContext } from '../store-context.js';
import type { NewGrant } from '../types.js';

export async function addGrant(
  context: StoreContext,
  input: NewGrant,
  signal?: AbortSignal,
): Promise<Grant> {
  signal?.throwIfAborted();
  const recipient = normaliseRecipient(input.recipient);
  await context.db
    .insertInto('grants')
    .values({
      id: context.newId(),
      user_id: input.userId,
      agent: input.agent,
      tool: input.tool,
      recipient,
      created_at: now(),
      set_by: input.setBy ?? null,
    })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'agent', 'tool', 'recipient']).doNothing(),
    )
    .execute();
  const row = await context.db
    .selectFrom('grants')
    .selectAll()
    .where('user_id', '=', input.userId)
    .where('agent', '=', input.agent)
    .where('tool', '=', input.tool)
    .where('recipient', '=', recipient)
    .executeTakeFirstOrThrow();
  return toGrant(row);
}

export async function listGrants(
  context: StoreContext,
  userId: string,
  signal?: AbortSignal,
): Promise<Grant[]> {
  const rows = await context.db
    .selectFrom('grants')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute({ signal });
  return rows.map(toGrant);
}

export async function hasGrant(
  context: StoreContext,
  userId: string,
  scope: { agent: string; tool: string; recipient: string },
  signal?: AbortSignal,
): Promise<boolean> {
  const row = await context.db
    .selectFrom('grants')
    .select('id')
    .where('user_id', '=', userId)
    .where('agent', '=', scope.agent)
    .where('tool', '=', scope.tool)
    .where('recipient', '=', normaliseRecipient(scope.recipient))
    .executeTakeFirst({ signal });
  return row !== undefined;
}

export async function revokeGrant(
  context: StoreContext,
  userId: string,
  grantId: string,
  signal?: AbortSignal,
): Promise<boolean> {
  signal?.throwIfAborted();
  const result = await context.db
    .deleteFrom('grants')
    .where('id', '=', grantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every user's grants (or one user's, by name), for the operator's `cadre grants list`. */
export async function listAllGrants(
  context: StoreContext,
  filter: { userName?: string },
  signal?: AbortSignal,
): Promise<NamedGrant[]> {
  let query = context.db
    .selectFrom('grants')
    .innerJoin('users', 'users.id', 'grants.user_id')
    .selectAll('grants')
    .select('users.name as user_name');
  if (filter.userName !== undefined) query = query.where('users.name', '=', filter.userName);
  const rows = await query.orderBy('grants.id').execute({ signal });
  return rows.map(({ user_name, ...row }) => ({ ...toGrant(row), userName: user_name }));
}

/** The operator's revoke (`cadre grants revoke ID`): whoever's grant it is; what was removed, if any. */
export async function revokeAnyGrant(
  context: StoreContext,
  grantId: string,
  signal?: AbortSignal,
): Promise<NamedGrant | undefined> {
  signal?.throwIfAborted();
  return writeTransaction(context, async (db) => {
    const row = await db
      .selectFrom('grants')
      .innerJoin('users', 'users.id', 'grants.user_id')
      .selectAll('grants')
      .select('users.name as user_name')
      .where('grants.id', '=', grantId)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    await db.deleteFrom('grants').where('id', '=', grantId).execute();
    const { user_name, ...grant } = row;
    return { ...toGrant(grant), userName: user_name };
  });
}
