import type { Grant } from '../records.js';
import { normaliseRecipient } from '../recipient.js';
import { toGrant } from '../rows.js';
import { now, type StoreContext } from '../store-context.js';

export async function addGrant(
  context: StoreContext,
  input: { userId: string; tool: string; recipient: string },
  signal?: AbortSignal,
): Promise<Grant> {
  signal?.throwIfAborted();
  const recipient = normaliseRecipient(input.recipient);
  await context.db
    .insertInto('grants')
    .values({
      id: context.newId(),
      user_id: input.userId,
      tool: input.tool,
      recipient,
      created_at: now(),
    })
    .onConflict((conflict) => conflict.columns(['user_id', 'tool', 'recipient']).doNothing())
    .execute();
  const row = await context.db
    .selectFrom('grants')
    .selectAll()
    .where('user_id', '=', input.userId)
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
  tool: string,
  recipient: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const row = await context.db
    .selectFrom('grants')
    .select('id')
    .where('user_id', '=', userId)
    .where('tool', '=', tool)
    .where('recipient', '=', normaliseRecipient(recipient))
    .executeTakeFirst({ signal });
  return row !== undefined;
}
