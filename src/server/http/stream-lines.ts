import type { CadreEvent } from '../../events/types.js';
import type { RunResponse } from '../run-service-types.js';
import type { HttpErrorCode } from './http-problem.js';

/**
 * The NDJSON wire lines clients already parse: status / delta / result /
 * error, plus thought_delta, tool_call, approval_required and a generic
 * `event` for everything else. Event-born lines carry `seq`, the cursor for
 * `GET /api/runs/:id/events?after=SEQ` after a disconnect.
 */
export type StreamLine =
  | { type: 'status'; status: 'planning'; threadId: string; runId?: string }
  | { type: 'delta'; delta: string; seq: number }
  | { type: 'thought_delta'; delta: string; seq: number }
  | { type: 'tool_call'; tool: string; callId: string; args: unknown; depth: number; seq: number }
  | { type: 'approval_required'; tool: string; callId: string; preview: string; seq: number }
  | { type: 'event'; event: CadreEvent }
  | { type: 'result'; result: RunResponse }
  // Clients read `error` as a string, so the stable code rides beside it.
  | { type: 'error'; error: string; code: HttpErrorCode };

/** Text of the top-level agent is the answer; a subagent's text is only an event. */
export function lineForEvent(event: CadreEvent): StreamLine {
  const { data, seq } = event;
  const text = typeof data.text === 'string' ? data.text : undefined;
  const top = event.depth === 0;
  if (event.type === 'text_delta' && top && text !== undefined)
    return { type: 'delta', delta: text, seq };
  if (event.type === 'thought_delta' && top && text !== undefined)
    return { type: 'thought_delta', delta: text, seq };
  if (event.type === 'tool_call' && typeof data.tool === 'string')
    return {
      type: 'tool_call',
      tool: data.tool,
      callId: String(data.callId ?? ''),
      args: data.args ?? {},
      depth: event.depth,
      seq,
    };
  if (event.type === 'approval_required' && typeof data.tool === 'string')
    return {
      type: 'approval_required',
      tool: data.tool,
      callId: String(data.callId ?? ''),
      preview: typeof data.preview === 'string' ? data.preview : data.tool,
      seq,
    };
  return { type: 'event', event };
}

/** The thread an event names (the core stamps it on `run_started`). */
export function threadOf(event: CadreEvent): string | undefined {
  return typeof event.data.threadId === 'string' ? event.data.threadId : undefined;
}
