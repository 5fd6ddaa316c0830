import type { PolicyDecision, Principal } from './types.js';

/** The call an interceptor looks at: arguments already normalised. */
export interface InterceptedCall {
  runId: string;
  callId: string;
  tool: string;
  args: Readonly<Record<string, unknown>>;
  sideEffect: boolean;
  principal?: Principal;
}

export type BeforeVerdict = 'allow' | { confirm: string } | { deny: string };

/** What became of a call, successes and failures alike. */
export type ToolCallOutcome =
  | { status: 'completed'; result: unknown; durationMs?: number }
  | { status: 'failed'; error: unknown; durationMs?: number }
  | { status: 'denied'; reason: string }
  | { status: 'rejected'; feedback?: string };

export interface ToolInterceptor {
  /** Named in reasons, so a person can tell which check refused a call. */
  name: string;
  before?(call: InterceptedCall, signal: AbortSignal): BeforeVerdict | Promise<BeforeVerdict>;
  after?(call: InterceptedCall, outcome: ToolCallOutcome): void | Promise<void>;
}

export type CombinedVerdict =
  { kind: 'allow' } | { kind: 'confirm'; reasons: string[] } | { kind: 'deny'; reasons: string[] };

/**
 * Runs every `before` (none is skipped because another already refused, so
 * each sees every call) and combines them: deny beats confirm beats allow.
 * An interceptor that throws or answers nonsense counts as a deny.
 */
export async function runBeforeInterceptors(
  interceptors: readonly ToolInterceptor[],
  call: InterceptedCall,
  signal: AbortSignal,
): Promise<CombinedVerdict> {
  const verdicts = await Promise.all(
    interceptors.map(async (interceptor): Promise<BeforeVerdict> => {
      if (!interceptor.before) return 'allow';
      try {
        return checked(interceptor.name, await interceptor.before(call, signal));
      } catch {
        // The error itself may quote the arguments; the reason names the interceptor only.
        return { deny: `The check "${interceptor.name}" failed, so the call is refused.` };
      }
    }),
  );
  const denies = verdicts.flatMap((v) => (typeof v === 'object' && 'deny' in v ? [v.deny] : []));
  if (denies.length > 0) return { kind: 'deny', reasons: denies };
  const confirms = verdicts.flatMap((v) =>
    typeof v === 'object' && 'confirm' in v ? [v.confirm] : [],
  );
  if (confirms.length > 0) return { kind: 'confirm', reasons: confirms };
  return { kind: 'allow' };
}

function checked(name: string, verdict: unknown): BeforeVerdict {
  if (verdict === 'allow') return verdict;
  if (typeof verdict === 'object' && verdict !== null) {
    const v = verdict as Record<string, unknown>;
    if (typeof v.deny === 'string') return { deny: v.deny };
    if (typeof v.confirm === 'string' && !('deny' in v)) return { confirm: v.confirm };
  }
  return { deny: `The check "${name}" gave no valid answer, so the call is refused.` };
}

/**
 * Tells every observer what happened. Observers cannot change or break the
 * call: their errors are reported to `onError` (for the log) and swallowed.
 */
export async function runAfterInterceptors(
  interceptors: readonly ToolInterceptor[],
  call: InterceptedCall,
  outcome: ToolCallOutcome,
  onError?: (interceptor: string, error: unknown) => void,
): Promise<void> {
  await Promise.all(
    interceptors.map(async (interceptor) => {
      if (!interceptor.after) return;
      try {
        await interceptor.after(call, outcome);
      } catch (error) {
        try {
          onError?.(interceptor.name, error);
        } catch {
          // A failing error reporter must not break the call either.
        }
      }
    }),
  );
}

/** The policy's decision tightened by the interceptors' verdict (never loosened). */
export function applyVerdict(decision: PolicyDecision, verdict: CombinedVerdict): PolicyDecision {
  if (decision.mode === 'deny') return decision;
  switch (verdict.kind) {
    case 'deny':
      return { mode: 'deny', reason: verdict.reasons.join(' ') };
    case 'confirm':
      return {
        mode: 'require_approval',
        reason: [
          ...(decision.mode === 'require_approval' ? [decision.reason] : []),
          ...verdict.reasons,
        ].join(' '),
      };
    case 'allow':
      return decision;
    default:
      return verdict satisfies never;
  }
}
