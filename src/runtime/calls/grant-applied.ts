import type { EventInputOf } from '../../events/types.js';
import type { FunctionCallPart } from '../../model/types.js';
import { describeGrantUse } from '../../policy/grants.js';
import type { Grant } from '../../policy/types.js';

/**
 * Said when a call runs without asking because the person's "always allow"
 * covered it, so the step shows whose rule let it through and since when.
 */
export function grantAppliedEvent(
  call: FunctionCallPart,
  grants: readonly Grant[],
): EventInputOf<'grant_applied'> {
  return {
    type: 'grant_applied',
    message: describeGrantUse(grants),
    data: {
      callId: call.id,
      tool: call.name,
      grants: grants.map((g) => ({
        ...(g.id ? { id: g.id } : {}),
        recipient: g.recipient,
        ...(g.agent ? { agent: g.agent } : {}),
        ...(g.createdAt ? { createdAt: g.createdAt } : {}),
        ...(g.setBy ? { setBy: g.setBy } : {}),
      })),
    },
  };
}
