import type { Grant } from '../records.js';
import { normaliseRecipient } from '../recipient.js';
import { toGrant } from '../rows.js';
import { now, type StoreContext } from '../store-context.js';
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
