import { traceHeaders } from '../../contracts/trace-carrier.js';
import { CancelledError, ConfigError, isAbortError } from '../../errors/cadre-error.js';
import { ModelError } from '../../errors/model-error.js';
import {
  addUsage,
  type FunctionCallPart,
  type FunctionResponsePart,
  type ModelRequest,
  type ToolDeclaration,
  type Usage,
} from '../../model/types.js';
import { missingOutputs } from '../completion/completion.js';
import type { LoopContext } from './loop-context.js';
import { callIdsOf, callIdsUnique, withUniqueCallIds } from '../calls/call-ids.js';
import { TurnCollector } from './model-turn.js';
import { holdForCall, type HeldCall } from './budgeted-call.js';
import { planCompaction } from '../compaction/plan-compaction.js';
import { effectiveWindow, measureRequest, measureSize } from '../compaction/measure-request.js';
import { estimateInputTokens } from '../../cost/call-estimate.js';
import { priceFor, type ModelPrice } from '../../cost/prices.js';
import type { ContextOverflow } from '../../model/context-overflow.js';
import type { Stop } from './stop.js';
import { runToolCalls, type CallEnvironment, type CallOutcome } from '../calls/tool-calls.js';
import { SILENT } from './run-events.js';
import { callerAborted } from './either-signal.js';
import { withSystemInstruction } from '../../telemetry/system-instructions.js';

/**
 * One model turn and the tool calls it asked for. Returns a Stop when the
 * run should end, undefined to go on.
 */
export async function takeTurn(
  ctx: LoopContext,
  declarations: readonly ToolDeclaration[],
  signal: AbortSignal,
  isGrace = false,
): Promise<Stop | undefined> {
  const { state, emit } = ctx;
  let turn;
  let sent: Sent | undefined;
  let settled: Usage | undefined;
  for (let attempt = 1; ; attempt++) {
    // A run with no known window skips the estimate; one whose request fits as it is (most
    // turns) is measured here, without loading fit-window or waiting a tick.
    const prepared = !measuresRequests(ctx)
      ? unmeasuredRequest(ctx, declarations)
      : (fitsAsItIs(ctx, declarations) ?? (await measuredRequest(ctx, declarations, signal)));
    if (prepared.kind === 'stop') {
      if (attempt > 1) state.turns++;
      return prepared.stop;
    }
    sent = prepared.sent;
    const { held } = prepared;
    // Nobody listening: skip building the event (once per turn, on every turn).
    if (emit !== SILENT && attempt === 1) {
      emit({
        type: 'turn_started',
        message: isGrace ? 'Final turn (grace)' : `Turn ${state.turns + 1}`,
        // The system prompt goes to in-process tracing only (see system-instructions.ts).
        data: withSystemInstruction(
          { turn: state.turns + 1, grace: isGrace },
          state.systemInstruction,
        ),
      });
    }
    try {
      // Streamed in this frame (TurnCollector), not through runModelTurn's: a frame less a turn.
      const collector = new TurnCollector(emit);
      for await (const chunk of ctx.client.generate(held.request, signal)) collector.add(chunk);
      signal.throwIfAborted();
      turn = collector.finish(ctx.client.provider);
    } catch (error) {
      held.settle(undefined);
      // "Too long": learn the provider's count and limit, fold to fit, and send once more.
      if (attempt === 1 && tooLong(error) && !signal.aborted) {
        learnOverflow(ctx, measuredOf(ctx, held.request, sent), error.contextOverflow);
        emit({
          type: 'warning',
          message: `The model refused the request as longer than its context window (${error.message}); compacting and sending it once more`,
          data: { context: 'compaction', reason: 'context_too_long' },
        });
        continue;
      }
      state.turns++;
      return interruption(ctx, error, signal);
    }
    state.turns++;
    settled = held.settle(turn.usage);
    break;
  }
  const usage = settled;
  if (usage) {
    state.usage = addUsage(state.usage, usage);
    state.contextTokens = usage.inputTokens;
    if (sent?.estimated !== undefined)
      ctx.measured = { estimated: sent.estimated, billed: usage.inputTokens };
    if (emit !== SILENT)
      emit({ type: 'usage', message: `${usage.totalTokens} tokens`, data: { ...usage } });
  }
  if (turn.calls.length > 0) {
    const taken = (ctx.callIds ??= callIdsOf(state.messages));
    if (!callIdsUnique(taken, turn.parts))
      turn = { ...turn, ...withUniqueCallIds(taken, turn.parts) };
    for (const call of turn.calls) taken.add(call.id);
  }
  if (turn.parts.length > 0) state.messages.push({ role: 'model', parts: turn.parts });
  if (turn.text) state.finalText = turn.text;

  if (turn.calls.length === 0) return noCalls(ctx, turn.text, isGrace);

  const offered =
    declarations === ctx.declarations ? ctx.offered : new Set(declarations.map((d) => d.name));
  if (hasSideEffect(ctx, turn.calls, offered)) {
    // Saved before any effect runs: a process that takes this run over answers these
    // calls from their action records instead of asking the model again.
    await ctx.journal.save(
      { ...state, pendingTurn: { calls: turn.calls, responses: turn.calls.map(() => null) } },
      'before_effects',
    );
  }
  // The calls' answers are awaited in this frame (not through answerCalls): one async frame less a turn.
  let outcomes;
  try {
    outcomes = await runToolCalls(turn.calls, callEnvironment(ctx, offered, signal));
  } catch (error) {
    return interruption(ctx, error, signal);
  }
  return answered(ctx, turn.calls, outcomes, signal, isGrace);
}

/** Whether any of the calls is to an offered side-effecting tool (a plain loop: once per turn). */
function hasSideEffect(
  ctx: LoopContext,
  calls: readonly FunctionCallPart[],
  offered: ReadonlySet<string>,
): boolean {
  for (const call of calls)
    if (offered.has(call.name) && ctx.registry.get(call.name)?.sideEffect) return true;
  return false;
}

/** The request as sent: its estimate and measured size when the window was checked. */
interface Sent {
  estimated?: number;
  tokens?: number;
}

type Prepared =
  { kind: 'ready'; held: HeldCall & { kind: 'held' }; sent: Sent } | { kind: 'stop'; stop: Stop };

function requestOf(ctx: LoopContext, declarations: readonly ToolDeclaration[]): ModelRequest {
  const request: ModelRequest = {
    model: ctx.state.model,
    systemInstruction: ctx.state.systemInstruction,
    messages: ctx.state.messages,
    tools: declarations,
    config: ctx.generation,
  };
  const carrier = ctx.toolContext.traceCarrier?.();
  if (carrier) request.traceHeaders = traceHeaders(carrier);
  return request;
}

/** Whether requests are measured before sending: a window is known, or a fold is due anyway. */
function measuresRequests(ctx: LoopContext): boolean {
  const settings = ctx.compaction;
  if (!settings) return false;
  return (
    (settings.enabled && effectiveWindow(ctx) !== undefined) ||
    planCompaction(ctx, settings) !== undefined
  );
}

/**
 * A request no window limits. Under a cost cap its estimate comes from the
 * per-message cache, so a long conversation is not re-read whole every turn.
 */
function unmeasuredRequest(ctx: LoopContext, declarations: readonly ToolDeclaration[]): Prepared {
  const request = requestOf(ctx, declarations);
  if (!ctx.budget.bounded()) return heldRequest(ctx, request, {});
  return heldRequest(ctx, request, { estimated: measureSize(ctx, declarations).estimated });
}

/**
 * The request measured against its window, when nothing has to change: a
 * known window, nothing due by count or reported usage, and the request under
 * the threshold (fit-window's first check). Otherwise undefined: fit-window decides.
 */
function fitsAsItIs(
  ctx: LoopContext,
  declarations: readonly ToolDeclaration[],
): Prepared | undefined {
  const settings = ctx.compaction;
  const window = effectiveWindow(ctx);
  if (!settings?.enabled || window === undefined || planCompaction(ctx, settings)) return undefined;
  const sized = measureSize(ctx, declarations);
  if (sized.tokens > settings.threshold * window) return undefined;
  return heldRequest(ctx, requestOf(ctx, declarations), sized);
}

/** The request held against the cost budget: one that would not fit does not start (no turn counted). */
function heldRequest(ctx: LoopContext, request: ModelRequest, sent: Sent): Prepared {
  const held = holdForCall(ctx.budget, request, ctx.prices, sent.estimated, priceOf(ctx, request));
  if (held.kind === 'refused') return { kind: 'stop', stop: { reason: 'MAX_COST' } };
  return { kind: 'ready', held, sent };
}

/** The model's price, looked up once per model of the run (a lookup walks the whole table). */
function priceOf(ctx: LoopContext, request: ModelRequest): ModelPrice | undefined {
  const kept = ctx.price;
  if (kept?.model === request.model) return kept.price;
  const price = priceFor(request.model, ctx.prices);
  ctx.price = { model: request.model, price };
  return price;
}

/** The next request, measured and made to fit the context window first (fit-window.ts). */
async function measuredRequest(
  ctx: LoopContext,
  declarations: readonly ToolDeclaration[],
  signal: AbortSignal,
): Promise<Prepared> {
  let fit;
  try {
    // Loaded with the first run that measures: scripted and unknown models never do.
    const { fitWindow } = await import('../compaction/fit-window.js');
    fit = await fitWindow(ctx, declarations, signal);
  } catch (error) {
    return { kind: 'stop', stop: interruption(ctx, error, signal) };
  }
  if (fit.kind === 'too_big') {
    const error = new ModelError(
      `The request (about ${fit.tokens} tokens) does not fit the model's context window (${fit.window} tokens), even with earlier turns summarised and tool results trimmed`,
    );
    return { kind: 'stop', stop: interruption(ctx, error, signal) };
  }
  return heldRequest(
    ctx,
    { ...fit.request, tools: declarations, ...traceHeadersOf(ctx.toolContext.traceCarrier?.()) },
    { estimated: fit.estimated, tokens: fit.tokens },
  );
}

/** The sent request's size, measured now when it was not before sending (no window known). */
function measuredOf(ctx: LoopContext, request: ModelRequest, sent: Sent): Sent {
  if (sent.estimated !== undefined && sent.tokens !== undefined) return sent;
  const estimated = estimateInputTokens(request);
  return { estimated, tokens: measureRequest(ctx, request, estimated) };
}

const tooLong = (error: unknown): error is ModelError & { contextOverflow: ContextOverflow } =>
  error instanceof ModelError && error.contextOverflow !== undefined;

/**
 * What a provider's "too long" answer teaches: its count of the request (the
 * next one is measured from it) and its window, or, when it named neither,
 * that the window is below what was sent.
 */
function learnOverflow(ctx: LoopContext, sent: Sent | undefined, overflow: ContextOverflow): void {
  const tokens = sent?.tokens;
  if (overflow.inputTokens !== undefined && sent?.estimated !== undefined)
    ctx.measured = { estimated: sent.estimated, billed: overflow.inputTokens };
  const limit =
    overflow.maxTokens ??
    (overflow.inputTokens !== undefined ? overflow.inputTokens - 1 : undefined) ??
    (tokens !== undefined ? Math.floor(tokens * 0.8) : undefined);
  if (limit !== undefined) ctx.learnedWindow = Math.min(ctx.learnedWindow ?? Infinity, limit);
}

/** Runs a turn's calls and records their answers; a waiting call pauses the turn. */
export async function answerCalls(
  ctx: LoopContext,
  calls: readonly FunctionCallPart[],
  offered: ReadonlySet<string>,
  signal: AbortSignal,
  isGrace: boolean,
): Promise<Stop | undefined> {
  let outcomes;
  try {
    outcomes = await runToolCalls(calls, callEnvironment(ctx, offered, signal));
  } catch (error) {
    return interruption(ctx, error, signal);
  }
  return answered(ctx, calls, outcomes, signal, isGrace);
}

/** What a turn's answered calls mean: the run was cancelled, waits for a person, or goes on. */
function answered(
  ctx: LoopContext,
  calls: readonly FunctionCallPart[],
  outcomes: readonly CallOutcome[],
  signal: AbortSignal,
  isGrace: boolean,
): Stop | undefined {
  const { state } = ctx;
  if (signal.aborted) {
    // Every call is answered (some as interrupted); keep the real results, then stop.
    state.messages.push({
      role: 'user',
      parts: outcomes.flatMap((o) => (o.kind === 'answered' ? [o.response] : [])),
    });
    return interruption(ctx, new CancelledError(), signal);
  }
  if (outcomes.some((o) => o.kind === 'waiting')) {
    // Pause the turn: answered calls keep their responses, waiting ones wait for a person.
    state.pendingTurn = pausedTurn(calls, outcomes);
    return { reason: 'PAUSED' };
  }
  return afterCalls(ctx, outcomes, isGrace);
}

/** A turn waiting for people: the answers known, and the subagents paused inside its calls. */
export function pausedTurn(
  calls: readonly FunctionCallPart[],
  outcomes: readonly CallOutcome[],
): NonNullable<LoopContext['state']['pendingTurn']> {
  const children = Object.fromEntries(
    outcomes.flatMap((o) => (o.kind === 'waiting' && o.child ? [[o.call.id, o.child]] : [])),
  );
  const bindings = Object.fromEntries(
    outcomes.flatMap((o) => (o.kind === 'waiting' && o.binding ? [[o.call.id, o.binding]] : [])),
  );
  return {
    calls: [...calls],
    responses: outcomes.map((o) => (o.kind === 'answered' ? o.response : null)),
    ...(Object.keys(children).length > 0 ? { children } : {}),
    ...(Object.keys(bindings).length > 0 ? { bindings } : {}),
  };
}

/** Records the answers of a turn's calls and says whether the run ends. */
export function afterCalls(
  ctx: LoopContext,
  outcomes: readonly CallOutcome[],
  isGrace: boolean,
): Stop | undefined {
  const { state } = ctx;
  // Plain loops: this runs once per turn, and flatMap / map / find cost more than the rest of it.
  const responses: FunctionResponsePart[] = [];
  let failure: (CallOutcome & { kind: 'answered' })['failRun'];
  for (const outcome of outcomes) {
    if (outcome.kind !== 'answered') continue;
    responses.push(outcome.response);
    if (!failure && outcome.failRun) failure = outcome.failRun;
  }
  state.messages.push({ role: 'user', parts: responses });
  if (failure) return { reason: 'ERROR', error: failure };
  if (state.completed) return { reason: 'GOAL' };
  if (
    isGrace &&
    ctx.protocol.kind === 'emit_value' &&
    missingOutputs(ctx.protocol, state.emittedVars).length === 0
  ) {
    return { reason: 'GOAL' };
  }
  return undefined;
}

function noCalls(ctx: LoopContext, text: string, isGrace: boolean): Stop | undefined {
  const { protocol, state } = ctx;
  switch (protocol.kind) {
    case 'answer':
      return text.trim() || !isGrace ? { reason: 'GOAL' } : { reason: 'NO_COMPLETION' };
    case 'emit_value': {
      const missing = missingOutputs(protocol, state.emittedVars);
      if (missing.length === 0) return { reason: 'GOAL' };
      if (state.nudged || isGrace) return { reason: 'NO_COMPLETION' };
      state.nudged = true;
      state.messages.push({
        role: 'user',
        parts: [
          {
            kind: 'text',
            text: `You stopped calling tools but have not emitted: ${missing.join(', ')}. Call emit_value for each before you finish.`,
          },
        ],
      });
      return undefined;
    }
    case 'complete_task':
      ctx.emit({
        type: 'error',
        message: 'The model stopped without calling complete_task',
        data: { context: 'protocol_violation' },
      });
      return { reason: 'NO_COMPLETION' };
    default:
      return protocol satisfies never;
  }
}

/** Maps a thrown error to why the run stops: the deadline, the caller, or a failure. */
function interruption(ctx: LoopContext, error: unknown, signal: AbortSignal): Stop {
  if (isAbortError(error) || signal.aborted) {
    answerDanglingCalls(ctx, 'Interrupted before it finished.');
    if (callerAborted(ctx)) return { reason: 'ABORTED' };
    // The run's deadline or a grace turn's own budget: either way, time ran out.
    return { reason: 'TIMEOUT' };
  }
  // A model SDK that is not installed is a setup problem, named as such.
  const code =
    error instanceof ModelError ? error.code : error instanceof ConfigError ? 'setup' : 'internal';
  const message =
    code !== 'internal' && error instanceof Error
      ? error.message
      : `Unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
  ctx.emit({ type: 'error', message, data: { code } });
  return { reason: 'ERROR', error: { code, message } };
}

/** Providers require an answer for every call; interrupted calls get an error answer. */
export function answerDanglingCalls(ctx: LoopContext, reason: string): void {
  const last = ctx.state.messages.at(-1);
  if (!last || last.role !== 'model') return;
  const responses: FunctionResponsePart[] = last.parts.flatMap((part) =>
    part.kind === 'function_call'
      ? [{ kind: 'function_response', id: part.id, name: part.name, response: { error: reason } }]
      : [],
  );
  if (responses.length > 0) ctx.state.messages.push({ role: 'user', parts: responses });
}

/**
 * The environment tool calls of this execution run in. Built once and reused
 * while the offered tools and the signal stay the same (every normal turn).
 */
export function callEnvironment(
  ctx: LoopContext,
  offered: ReadonlySet<string>,
  signal: AbortSignal,
): CallEnvironment {
  const reused = ctx.callEnvironment;
  if (reused && reused.offered === offered && reused.toolContext.signal === signal) return reused;
  const env: CallEnvironment = {
    state: ctx.state,
    registry: ctx.registry,
    offered,
    protocol: ctx.protocol,
    validator: ctx.validator,
    confirm: ctx.confirm,
    waitingForPerson: (waiting) => (waiting ? ctx.deadline.pause() : ctx.deadline.resume()),
    toolContext: { ...ctx.toolContext, signal },
    emit: ctx.emit,
    onReject: ctx.definition.onReject ?? 'continue',
    journal: ctx.journal,
    ...(ctx.interceptors ? { interceptors: ctx.interceptors } : {}),
    ...(ctx.policy ? { policy: ctx.policy } : {}),
    ...(ctx.definition.toolConfig.patterns ? { patterns: ctx.definition.toolConfig.patterns } : {}),
    // Loaded on the first pause: the package entry does not load the snapshot code.
    definitionHash: () =>
      (ctx.definitionHash ??= import('../../definition/definition-snapshot.js').then((m) =>
        m.definitionHash(ctx.definition),
      )),
  };
  ctx.callEnvironment = env;
  return env;
}

/** The model call's trace headers, when the run is traced (none otherwise: the request stays as it was). */
const traceHeadersOf = (
  carrier: Parameters<typeof traceHeaders>[0],
): { traceHeaders?: Record<string, string> } =>
  carrier ? { traceHeaders: traceHeaders(carrier) } : {};
