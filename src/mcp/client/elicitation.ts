import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ConfirmationHandler } from '../../contracts/confirmation.js';
import type { ToolContext } from '../../tools/types.js';
import { visibleText } from '../../util/visible-text.js';

type ElicitParams = ElicitRequest['params'];

/**
 * A server's `elicitation/create` asked of the run's person the way an
 * approval is: approve accepts (with the form's defaults), reject declines,
 * and a question nobody can answer now (pause) cancels. A form with a
 * required field that has no default needs values a yes / no cannot give:
 * it is declined without asking. So is a link (url mode).
 */
export function elicitationHost(
  server: string,
  confirm: ConfirmationHandler,
  ctx: Pick<ToolContext, 'runId' | 'execution'>,
  callId: string,
): (params: ElicitParams, signal: AbortSignal) => Promise<ElicitResult> {
  let asked = 0;
  return async (params, signal) => {
    if (params.mode === 'url') return { action: 'decline' };
    const content = defaults(params.requestedSchema);
    if (!content) return { action: 'decline' };
    asked += 1;
    const decision = await confirm(
      {
        runId: ctx.runId,
        callId: `${callId}:elicit-${asked}`,
        tool: `${server}__elicitation`,
        args: { message: params.message, ...(Object.keys(content).length ? { content } : {}) },
        // The server's words are raw: shown escaped like any preview.
        preview: visibleText(`MCP server ${server} asks: ${params.message}`),
        reason: `The MCP server "${server}" asks for a decision while it answers a call.`,
        execution: ctx.execution,
        canPause: false,
      },
      signal,
    );
    switch (decision.kind) {
      case 'approve':
      case 'approve_always':
        return { action: 'accept', content };
      case 'reject':
        return { action: 'decline' };
      case 'pause':
      case 'unattended':
        // Nobody can answer now: the question is cancelled, not declined.
        return { action: 'cancel' };
      default:
        return decision satisfies never;
    }
  };
}

type FormSchema = Extract<ElicitParams, { requestedSchema: unknown }>['requestedSchema'];
type Value = string | number | boolean | string[];

/** The form filled with its defaults; undefined when a required field has none. */
function defaults(schema: FormSchema): Record<string, Value> | undefined {
  const content: Record<string, Value> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const value = 'default' in field ? (field.default as Value | undefined) : undefined;
    if (value !== undefined) content[name] = value;
    else if (schema.required?.includes(name)) return undefined;
  }
  return content;
}
