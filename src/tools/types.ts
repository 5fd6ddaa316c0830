import type { TraceCarrier } from '../contracts/trace-carrier.js';
import type { EventSink, ExecutionContext } from '../events/types.js';
import type { JsonSchema, Message } from '../model/types.js';
import type { RunResult } from '../contracts/run-result.js';
import type { SpawnRequest } from '../contracts/agent.js';
import type { ConfirmationHandler } from '../contracts/confirmation.js';

/** A one-off question to the calling agent's model, without tools. */
export interface ToolModelRequest {
  systemInstruction?: string;
  messages: readonly Message[];
  maxOutputTokens?: number;
  temperature?: number;
}

/** What every tool call receives from the loop that runs it. */
export interface ToolContext {
  runId: string;
  /** The caller's place in the agent tree. */
  execution: ExecutionContext;
  signal: AbortSignal;
  /** Root directory file tools are confined to (absolute, real path). */
  workspace: string;
  /**
   * Cadre's own state outside the workspace's `.cadre/` (the server's
   * database, audit key, token files): no tool may read, write or list them.
   */
  protectedPaths?: readonly string[];
  emit: EventSink;
  /** The person the run acts for (the runtime spec's execution context). */
  uid?: string;
  /** Where the call came from, e.g. `cli`, `http`, `library`. */
  origin?: string;
  /** The W3C trace context an outgoing request of this call carries (when the run is traced). */
  traceCarrier?: () => TraceCarrier | undefined;
  /** The persisted action this call belongs to; stable across an approval and resume. */
  actionId?: string;
  threadId?: string;
  /** Starts a subagent as a child of the caller; absent where nesting is not allowed. */
  spawn?: (request: SpawnRequest, signal: AbortSignal) => Promise<RunResult>;
  /**
   * Asks the calling agent's own model (an MCP server's sampling request);
   * the call's usage and cost count as the run's.
   */
  generate?: (
    request: ToolModelRequest,
    signal: AbortSignal,
  ) => Promise<{ text: string; model: string }>;
  /** Asks the run's person, as an approval is asked (an MCP server's elicitation). */
  confirm?: ConfirmationHandler;
}

export type ApprovalDefault = 'auto' | 'require';

/** The guarantee a side-effecting tool gives across a crash mid-call (see `Tool.delivery`). */
export type Delivery = 'at-most-once' | 'exactly-once';

export interface Tool<Args = Record<string, unknown>> {
  name: string;
  description: string;
  /** JSON Schema of the arguments object; the registry validates calls against it. */
  inputSchema: JsonSchema;
  /**
   * Other names agent files may grant this tool by, such as the ADK Python
   * function path it stands for (`agents.studio_tools.read_file`).
   */
  aliases?: readonly string[];
  /** True when the tool changes the world (files, mail, calendars); false means read-only. */
  sideEffect: boolean;
  /** Approval default for side effects; `auto` only where the policy allows. */
  defaultApproval?: ApprovalDefault;
  /**
   * What a side effect's run gives when a process dies mid-call, so its
   * outcome is unknown. `at-most-once` (the default): it is never run again,
   * and the model is told it may or may not have happened (a mail cannot be
   * unsent). `exactly-once`: running the same call again (same run and call
   * id) changes nothing more (a calendar event with a stable UID, an HTTP
   * request with an idempotency key), so the next owner runs it again.
   */
  delivery?: Delivery;
  /**
   * One line a person reads on an approval card or in progress output, built
   * from the raw arguments: the runtime escapes it once for every display
   * (`previewOf`), so a preview neither escapes nor JSON-quotes its values.
   */
  preview?(args: Args): string;
  /**
   * Checks a call against the patterns a definition narrowed this tool to
   * (`Bash(git status:*)` gives `shell` the pattern `git status:*`). Returns
   * why the call is outside them, or undefined when it is inside. The gate
   * asks this before any rule or approval, so such a call is refused outright.
   */
  outsidePatterns?(args: Args, patterns: readonly string[]): string | undefined;
  /**
   * Why every call of this tool must ask a person right now, whatever rules,
   * grants or trust say (a shell with no sandbox to run in). Only a deny beats it.
   */
  approvalFloor?(signal: AbortSignal): Promise<string | undefined>;
  /**
   * Loads what `outsidePatterns` needs, for a tool whose code loads on first
   * use (the package entry's built-ins): the gate awaits it before it checks
   * a narrowed call's patterns.
   */
  load?(): Promise<void>;
  /** Returns JSON-serialisable output; throws `ToolExecutionError` with a safe message on failure. */
  execute(args: Args, ctx: ToolContext): Promise<unknown>;
}

/**
 * Types a tool's arguments for its author and erases them for registries.
 * Arguments are validated against `inputSchema` before `execute` runs.
 */
export function defineTool<Args>(tool: Tool<Args>): Tool {
  return tool as unknown as Tool;
}
