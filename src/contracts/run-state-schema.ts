import * as z from 'zod';
import {
  approvalBindingSchema as binding,
  functionCallSchema as functionCall,
  functionResponseSchema as functionResponse,
  messageSchema as message,
} from './message-schema.js';
import type { RunState } from './run-state.js';

/*
 * The shape of a stored RunState, checked when a run is resumed: a state
 * damaged in the store (or written by hand) is refused naming the field, not
 * misread halfway through a resume. Objects are loose: a field added later
 * as optional passes through untouched. Loaded on first resume only (zod).
 */

const record = z.record(z.string(), z.unknown());

const usage = z.looseObject({
  inputTokens: z.number(),
  outputTokens: z.number(),
  thoughtTokens: z.number(),
  totalTokens: z.number(),
  cachedInputTokens: z.number().optional(),
  costUsd: z.number().optional(),
  response: z.looseObject({ provider: z.string() }).optional(),
});

const trace = z.looseObject({
  tool: z.string(),
  args: record,
  output: z.string(),
  duration_secs: z.number(),
});

const terminateReason = z.enum(['GOAL', 'ERROR', 'TIMEOUT', 'MAX_TURNS', 'MAX_COST', 'ABORTED']);
const recoverableReason = z.enum(['MAX_TURNS', 'MAX_COST', 'TIMEOUT', 'NO_COMPLETION']);

const subagentCost = z.looseObject({
  agent: z.string(),
  execution_id: z.string(),
  cost_usd: z.number(),
});

const awaitedCall = z.looseObject({
  callId: z.string(),
  tool: z.string(),
  args: record,
  preview: z.string(),
  path: z.array(z.string()).optional(),
  binding: binding.optional(),
});

/** A model reply as a code agent's memo keeps it: chunks this or an older client streamed. */
const modelChunk = z.looseObject({ type: z.string() });

const runResult = z.looseObject({
  run_id: z.string(),
  agent: z.string(),
  terminate_reason: terminateReason,
  final_message: z.string(),
  content: z.string(),
  usage,
});

/** Built on first use: a suspended child holds a whole RunState of its own. */
const suspendedChild: z.ZodType = z.lazy(() =>
  z.looseObject({
    executionId: z.string(),
    scope: z.string(),
    agent: z.string(),
    state: runStateSchema,
    pending: z.array(awaitedCall),
  }),
);

const codeMemo = z.looseObject({
  input: z.looseObject({ prompt: z.string(), inputs: record }),
  models: z.array(z.array(modelChunk).nullable()),
  spawns: z.record(
    z.string(),
    z.union([z.looseObject({ result: runResult }), z.looseObject({ child: suspendedChild })]),
  ),
  events: z.number().int().nonnegative().optional(),
});

const runStateSchema = z.looseObject({
  version: z.number().int().positive(),
  runId: z.string(),
  agent: z.string(),
  model: z.string(),
  systemInstruction: z.string().optional(),
  messages: z.array(message),
  turns: z.number().int().nonnegative(),
  activeMs: z.number().nonnegative(),
  startedAt: z.string(),
  emittedVars: record,
  completed: z.looseObject({ output: z.unknown() }).optional(),
  traces: z.array(trace),
  usage,
  contextTokens: z.number().optional(),
  costSpentUsd: z.number().optional(),
  subagentCosts: z.array(subagentCost).optional(),
  alwaysApproved: z.array(z.string()),
  nudged: z.boolean(),
  recoveredFrom: recoverableReason.optional(),
  pendingTurn: z
    .looseObject({
      calls: z.array(functionCall),
      responses: z.array(functionResponse.nullable()),
      children: z.record(z.string(), suspendedChild).optional(),
      bindings: z.record(z.string(), binding).optional(),
    })
    .optional(),
  code: codeMemo.optional(),
  status: z.enum(['running', 'paused', 'finished']),
  terminateReason: terminateReason.optional(),
  finalText: z.string().optional(),
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
});

/** Where the schema found a stored state wrong, as `field.path: what`. */
export interface RunStateIssue {
  path: string;
  message: string;
}

/**
 * The state checked against the schema: the RunState, or what is wrong with
 * it. The value is returned as stored (loose objects keep unknown fields), so
 * a state that passes resumes exactly as it was written.
 */
export function checkRunState(
  value: Record<string, unknown>,
): { ok: true; state: RunState } | { ok: false; issues: RunStateIssue[] } {
  const parsed = runStateSchema.safeParse(value);
  if (parsed.success) return { ok: true, state: value as unknown as RunState };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    })),
  };
}
