import type { ApprovalDefault } from '../tools/types.js';

/**
 * How much a person lets the agent do alone (presets over decide()):
 * `supervised` — every side effect needs approval, grants are ignored;
 * `delegated` — the defaults: side effects need approval unless grants cover them;
 * `autonomous` — side effects run unless a rule says otherwise.
 */
export type TrustLevel = 'supervised' | 'delegated' | 'autonomous';

export const TRUST_LEVELS: readonly TrustLevel[] = ['supervised', 'delegated', 'autonomous'];

/** Who a call is made for. */
export interface Principal {
  userId: string;
  /** Unset means the engine's default (`delegated`). */
  trust?: TrustLevel;
}

export type PolicyDecision =
  /** `grants`: the standing grants that allowed the call, when grants (not a rule or trust) did. */
  | { mode: 'allow'; grants?: readonly Grant[] }
  | { mode: 'require_approval'; reason: string }
  | { mode: 'deny'; reason: string };

export type PolicyMode = PolicyDecision['mode'];

/**
 * A standing permission from "always allow": this tool may reach this
 * recipient without asking. `recipient` is a lower-case address, or `*` for
 * any recipient (and for calls that have none).
 */
export interface Grant {
  tool: string;
  recipient: string;
  /** The agent it covers; unset covers every agent (a grant a library caller writes itself). */
  agent?: string;
  /** Where a stored grant came from, so a step run under it can say so. */
  id?: string;
  createdAt?: string;
  /** The name of the person who set it. */
  setBy?: string;
}

/** What decide() needs to know about a tool. */
export interface PolicyTool {
  name: string;
  sideEffect: boolean;
  defaultApproval?: ApprovalDefault;
  /** Set when every call must ask a person whatever rules, grants or trust say (only deny beats it). */
  approvalFloor?: string;
}

/**
 * A tool call's arguments after normalisation, or why they were refused.
 * `recipients` lists every person the call reaches (mail to/cc/bcc, calendar
 * attendees); it is absent for tools that have no recipients at all.
 */
export type NormalizedCall =
  | { ok: true; args: Readonly<Record<string, unknown>>; recipients?: readonly string[] }
  | { ok: false; reason: string };

/** A JSON scalar a rule can compare with. */
export type RuleScalar = string | number | boolean | null;

/**
 * A condition on one argument. A string is a glob (picomatch, case-insensitive);
 * array arguments are tested element by element (see arg-matchers.ts).
 * `commands` holds shell command patterns (`git status:*`, `npm test`), read
 * the way the shell reads the command: an allow rule needs every command of
 * `a && b; c` to match, a restricting rule fires when any does.
 */
export type ArgMatcher =
  | string
  | { equals: RuleScalar }
  | { matches: string }
  | { max: number }
  | { min: number }
  | { commands: readonly string[] };

export interface PolicyRule {
  /** Glob over tool names, e.g. `gmail_*`. */
  tool: string;
  /** Every listed argument must match. `recipients` names all recipients of the call. */
  when?: Readonly<Record<string, ArgMatcher>>;
  /** A user id or a trust level; unset matches everyone. */
  principal?: string;
  decision: PolicyMode;
  reason: string;
}

export interface DecideOptions {
  /** `off` denies every side effect (from `CADRE_SIDE_EFFECTS`; read by the caller, not here). */
  sideEffects?: 'on' | 'off';
  /** Trust for principals that have none; `delegated` when unset. */
  defaultTrust?: TrustLevel;
}
