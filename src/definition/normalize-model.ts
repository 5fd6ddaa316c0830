import { warningAt, type IssuePath, type PendingIssue } from './issues.js';
import { meansRunDefault } from './model-names.js';
import type { RawModelConfig, RawRunConfig } from './raw-definition-schema.js';
import { pickSpelling } from './spelling.js';
import type { CompactionConfig, ModelConfig, RunConfig } from './types.js';
import type { ValidateContext } from './validate-context.js';

/**
 * `inherit` / `auto` mean the run's default model. In foreign files a model
 * no provider serves (`sonnet`, `claude-*`) also falls back to it, with a
 * warning; in Cadre's own files an unserved model is kept (the run fails with
 * a clear provider error) but warned about now.
 */
function normalizeModelName(
  model: string,
  at: IssuePath,
  ctx: ValidateContext,
  issues: PendingIssue[],
): string | undefined {
  if (meansRunDefault(model)) {
    if (ctx.foreign) issues.push(warningAt(at, `model "${model}" means the run's default model`));
    return undefined;
  }
  if (ctx.servesModel(model)) return model;
  if (ctx.foreign) {
    issues.push(
      warningAt(
        at,
        `no configured provider serves model "${model}"; the run's default model is used`,
      ),
    );
    return undefined;
  }
  issues.push(
    warningAt(
      at,
      `no configured provider serves model "${model}" (use a Gemini id or a provider prefix such as openai:)`,
    ),
  );
  return model;
}

export function normalizeModel(
  raw: RawModelConfig | undefined,
  at: IssuePath,
  ctx: ValidateContext,
  issues: PendingIssue[],
): ModelConfig | undefined {
  if (!raw) return undefined;
  const out: ModelConfig = {};
  if (raw.model !== undefined)
    out.model = normalizeModelName(raw.model, [...at, 'model'], ctx, issues);
  const temp = pickSpelling<number>(raw, ['temp', 'temperature'], at, issues);
  if (temp) out.temp = temp.value;
  const topP = pickSpelling<number>(raw, ['top_p', 'topP'], at, issues);
  if (topP) out.top_p = topP.value;
  const budget = pickSpelling<number>(raw, ['thinkingBudget', 'thinking_budget'], at, issues);
  if (budget) out.thinkingBudget = budget.value;
  return out;
}

export function normalizeRun(
  raw: RawRunConfig | undefined,
  at: IssuePath,
  issues: PendingIssue[],
): RunConfig | undefined {
  if (!raw) return undefined;
  const out: RunConfig = {};
  const turns = pickSpelling<number>(raw, ['max_turns', 'maxTurns'], at, issues);
  if (turns) out.max_turns = turns.value;
  const minutes = pickSpelling<number>(raw, ['max_time_minutes', 'maxTimeMinutes'], at, issues);
  if (minutes) out.max_time_minutes = minutes.value;
  const cost = pickSpelling<number>(raw, ['max_cost_usd', 'maxCostUsd'], at, issues);
  if (cost) out.max_cost_usd = cost.value;
  const mode = pickSpelling<'async' | 'threads'>(
    raw,
    ['execution_mode', 'executionMode'],
    at,
    issues,
  );
  if (mode) out.execution_mode = mode.value;
  if (raw.compaction)
    out.compaction = normalizeCompaction(raw.compaction, [...at, 'compaction'], issues);
  return out;
}

function normalizeCompaction(
  raw: NonNullable<RawRunConfig['compaction']>,
  at: IssuePath,
  issues: PendingIssue[],
): CompactionConfig {
  const out: CompactionConfig = {};
  if (raw.enabled !== undefined) out.enabled = raw.enabled;
  if (raw.threshold !== undefined) out.threshold = raw.threshold;
  const keep = pickSpelling<number>(raw, ['keep_turns', 'keepTurns'], at, issues);
  if (keep) out.keep_turns = keep.value;
  const window = pickSpelling<number>(raw, ['context_window', 'contextWindow'], at, issues);
  if (window) out.context_window = window.value;
  const trim = pickSpelling<number>(
    raw,
    ['max_tool_result_chars', 'maxToolResultChars'],
    at,
    issues,
  );
  if (trim) out.max_tool_result_chars = trim.value;
  return out;
}
