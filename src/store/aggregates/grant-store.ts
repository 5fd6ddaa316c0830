import type { Grant, NamedGrant } from '../records.js';
import type { CallOptions } from './call-options.js';

export interface NewGrant {
  userId: string;
  /** The agent the grant covers. */
  agent: string;
  tool: string;
  recipient: string;
  /** The name of the person who set it. */
  setBy?: string;
}

/** What one grant allows: this agent's calls of this tool to this recipient. */
export interface GrantScope {
  agent: string;
  tool: string;
  recipient: string;
}

/** "Always allow": a user's standing approvals of a tool for a recipient. */
export interface GrantStore {
  /** Idempotent; the recipient is normalised (trimmed, lower-cased). */
  add(grant: NewGrant, options?: CallOptions): Promise<Grant>;
  /** Every grant of the user, every agent's, oldest first. */
  list(userId: string, options?: CallOptions): Promise<Grant[]>;
  has(userId: string, scope: GrantScope, options?: CallOptions): Promise<boolean>;
  /** Undoes one of the user's grants; false when the user has no grant with that id. */
  revoke(grantId: string, userId: string, options?: CallOptions): Promise<boolean>;
  /** Every user's grants, or one user's by name, with the user's name (`cadre grants list`). */
  listAll(filter: { userName?: string }, options?: CallOptions): Promise<NamedGrant[]>;
  /** Undoes a grant whoever's it is (`cadre grants revoke`); undefined when there is none. */
  revokeAny(grantId: string, options?: CallOptions): Promise<NamedGrant | undefined>;
}
