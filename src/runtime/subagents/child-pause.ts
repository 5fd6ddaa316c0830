import type { ResumeDecision } from '../../contracts/confirmation.js';
import type { AwaitedCall, RunState, PausedChild } from '../../contracts/run-state.js';

/** A child execution stopped to wait for a person (thrown by the launcher, caught by its spawn). */
export class ChildLaunchPaused extends Error {
  constructor(
    readonly state: RunState,
    readonly pending: AwaitedCall[],
  ) {
    super('The subagent is waiting for approval.');
    this.name = 'ChildLaunchPaused';
  }
}

/** A subagent waiting for a person: its parent's call pauses with it instead of being answered. */
export class ParentCallPaused extends Error {
  constructor(readonly child: PausedChild) {
    super(`${child.agent} is waiting for approval.`);
    this.name = 'ParentCallPaused';
  }
}

/** What a resumed child needs: where it stopped, and the decisions for its waiting calls. */
export interface ChildResume {
  child: PausedChild;
  decisions: Readonly<Record<string, ResumeDecision>>;
}

/**
 * A child's call ids are prefixed with its scope wherever the tree stores or
 * decides them (actions, approvals, decisions), so two children's `call_1`
 * never meet; the child's own conversation keeps the ids its model gave.
 */
export const childScope = (agent: string, executionId: string): string =>
  `${agent}@${executionId.slice(0, 8)}`;

export const scopedCallId = (scope: string, callId: string): string => `${scope}/${callId}`;

/** The decisions meant for one child, with its scope taken off. */
export function decisionsFor(
  scope: string,
  decisions: Readonly<Record<string, ResumeDecision>>,
): Record<string, ResumeDecision> {
  const prefix = `${scope}/`;
  return Object.fromEntries(
    Object.entries(decisions).flatMap(([id, decision]) =>
      id.startsWith(prefix) ? [[id.slice(prefix.length), decision]] : [],
    ),
  );
}

/** The agents of a scoped call id, outermost first (`mailer@1a2b3c4d/call_1` → `['mailer']`). */
export function scopeAgents(callId: string): string[] {
  return callId
    .split('/')
    .slice(0, -1)
    .map((segment) => segment.replace(/@[^@]*$/, ''));
}
