import { CadreError, isAbortError } from '../../errors/cadre-error.js';
import type { ToolTrace } from '../../contracts/run-result.js';
import type { SchemaValidator } from '../../runtime/completion/schema-validator.js';
import type { Tool, ToolContext } from '../../tools/types.js';
import { capOutput, capText } from '../../runtime/calls/cap-output.js';
import { parseActionInput } from './react-protocol.js';

export interface ActionEnvironment {
  /** Every tool the agent was configured with, read-only or not. */
  tools: ReadonlyMap<string, Tool>;
  validator(): Promise<SchemaValidator>;
  toolContext(): Promise<ToolContext>;
}

/** Every action ends in an observation; only a tool that actually ran leaves a trace. */
export interface ActionOutcome {
  observation: string;
  args?: Record<string, unknown>;
  trace?: ToolTrace;
}

/**
 * Runs one Action. Problems the model can fix (unknown tool, bad JSON,
 * invalid arguments, a refused side effect, a failing tool) become the
 * observation; only cancellation throws.
 */
export async function runAction(
  toolName: string,
  input: string,
  env: ActionEnvironment,
): Promise<ActionOutcome> {
  const tool = env.tools.get(toolName);
  if (!tool) {
    const available = [...env.tools.values()].filter((t) => !t.sideEffect).map((t) => t.name);
    return {
      observation: `Unknown tool '${toolName}'. Available tools: ${available.join(', ') || '(none)'}.`,
    };
  }
  const parsed = parseActionInput(input);
  if (!parsed.ok) return { observation: parsed.problem };
  const args = parsed.args;
  // No person can approve anything here, so a tool that changes the world never runs.
  if (tool.sideEffect) {
    return {
      observation: `Refused: ${tool.name} changes files or other state, and this agent cannot ask a person to approve that. Use a read-only tool, or give your Final Answer.`,
      args,
    };
  }
  const check = (await env.validator()).forJsonSchema(tool.inputSchema)(args);
  if (!check.ok)
    return { observation: `Invalid arguments for ${tool.name}: ${check.errors.join('; ')}`, args };
  const ctx = await env.toolContext();
  const started = performance.now();
  let output: string;
  try {
    output = outputText(capOutput(await tool.execute(args, ctx)));
  } catch (error) {
    if (isAbortError(error) || ctx.signal.aborted) throw error;
    output = `Error: ${capText(
      error instanceof CadreError
        ? error.message
        : `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`,
    )}`;
  }
  const trace: ToolTrace = {
    tool: tool.name,
    args,
    output,
    duration_secs: (performance.now() - started) / 1000,
  };
  return { observation: output, args, trace };
}

function outputText(output: unknown): string {
  return typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null');
}
