import type { GrantView, RunService } from '../run-service-types.js';
import type { ServerContext } from './server-context.js';

/** The user's grants, to see and undo; every lookup is scoped to the user. */
export function grantViews(ctx: ServerContext): Pick<RunService, 'listGrants' | 'revokeGrant'> {
  return {
    async listGrants(userId, signal) {
      const grants = await ctx.store.grants.list(userId, { signal });
      return grants.map(({ userId: _u, ...grant }): GrantView => grant);
    },
    revokeGrant: (userId, grantId, signal) => ctx.store.grants.revoke(grantId, userId, { signal }),
  };
}
