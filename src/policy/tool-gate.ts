import { decide } from './decide.js';
import { grantCoverage, grantsForAgent } from './grants.js';
import { applyVerdict, runBeforeInterceptors, type ToolInterceptor } from './interceptors.js';
import { normalizeCall } from './normalize-call.js';
import type { Grant, PolicyDecision, PolicyRule, PolicyTool, TrustLevel } from './types.js';

/**
 * What one gate applies to every call of a run tree, read-only tools
 * included: the rules, the trust preset, the side-effect kill switch and
 * the principal's standing grants.
 */
export interface GatePolicy {
  rules: readonly PolicyRule[];
  sideEffects: 'on' | 'off';
  trust?: TrustLevel;
  /** Who the calls are made for (the server's user; `local` on the command line). */
  principal?: string;
  /** Standing "always allow" grants (the server reads them from the store). */
  grants?: (signal: AbortSignal) => Promise<readonly Grant[]>;
  /**
   * Decides elsewhere: a child in a worker thread asks its parent's gate, so
   * one policy (and its grants and interceptors) sees every call of the tree.
   */
  remote?: (
    call: GatedCall,
    approvedForRun: readonly string[],
    signal: AbortSignal,
  ) => Promise<PolicyDecision>;
  /** Told of every refusal, before the model hears it (the server writes it to the audit log). */
  onRefused?: (call: GatedCall, decision: PolicyDecision, signal: AbortSignal) => Promise<void>;
}

/** No rules, side effects on, delegated trust: side effects ask a person, reads run. */
export const DEFAULT_GATE_POLICY: GatePolicy = { rules: [], sideEffects: 'on' };

export interface GatedCall {
  runId: string;
  callId: string;
  tool: PolicyTool;
  args: Record<string, unknown>;
  /** The agent making the call: only its own grants (and agent-less ones) apply. */
  agent?: string;
  /** Set when the call is outside the patterns its agent narrowed the tool to: refused outright. */
  refusal?: string;
}

/**
 * The one gate every tool call passes, so no path can skip it: normalise the arguments,
 * decide() on rules, trust, kill switch and grants, then every interceptor
 * (all run; deny beats confirm). The interceptors can only tighten the
 * decision. `approvedForRun` are tools a person allowed for the rest of the run.
 */
export async function passGate(
  policy: GatePolicy,
  interceptors: readonly ToolInterceptor[],
  call: GatedCall,
  approvedForRun: readonly string[],
  signal: AbortSignal,
): Promise<PolicyDecision> {
  if (call.refusal !== undefined) {
    const refused: PolicyDecision = { mode: 'deny', reason: call.refusal };
    await policy.onRefused?.(call, refused, signal);
    return refused;
  }
  // The parent process decides for a worker thread's calls (and normalises them there).
  if (policy.remote) return policy.remote(call, approvedForRun, signal);
  const normalized = normalizeCall(call.tool.name, call.args);
  // Grants only ever cover side effects: a read-only call costs no lookup.
  // A grant covers only the agent that earned it.
  const grants =
    policy.grants && call.tool.sideEffect
      ? grantsForAgent(await policy.grants(signal), call.agent)
      : [];
  const principal = {
    userId: policy.principal ?? 'local',
    ...(policy.trust ? { trust: policy.trust } : {}),
  };
  const options = { sideEffects: policy.sideEffects };
  let decision = decide(principal, call.tool, normalized, grants, policy.rules, options);
  // A call that would have asked without grants ran under them: the step says which.
  if (
    decision.mode === 'allow' &&
    grants.length > 0 &&
    normalized.ok &&
    decide(principal, call.tool, normalized, [], policy.rules, options).mode !== 'allow'
  )
    decision = {
      mode: 'allow',
      grants: grantCoverage(call.tool.name, normalized.recipients, grants).by,
    };
  if (
    decision.mode === 'require_approval' &&
    call.tool.approvalFloor === undefined &&
    approvedForRun.includes(call.tool.name)
  )
    decision = { mode: 'allow' };
  if (interceptors.length > 0) {
    const verdict = await runBeforeInterceptors(
      interceptors,
      {
        runId: call.runId,
        callId: call.callId,
        tool: call.tool.name,
        args: normalized.ok ? normalized.args : call.args,
        sideEffect: call.tool.sideEffect,
        ...(policy.principal ? { principal: { userId: policy.principal } } : {}),
      },
      signal,
    );
    decision = applyVerdict(decision, verdict);
  }
  if (decision.mode === 'deny') await policy.onRefused?.(call, decision, signal);
  return decision;
}
