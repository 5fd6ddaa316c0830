import type { StreamLine as WireLine } from '../../../src/server/http/stream-lines.js';
import type { CadreEvent, RunResponse, WireError } from './wire-types.js';
import { visibleText } from '../../../src/util/visible-text.js';

type Wire<T extends WireLine['type']> = Omit<Extract<WireLine, { type: T }>, 'seq'>;

/**
 * One line of the run stream, as the page keeps it: the server's
 * own line types (imported, so a change there breaks this build), read
 * leniently; lines of unknown types are skipped.
 */
export type StreamLine =
  | (Omit<Wire<'status'>, 'status' | 'threadId'> & { status: string; threadId?: string })
  | Wire<'delta'>
  | Wire<'thought_delta'>
  | (Wire<'tool_call'> & { summary: string })
  | (Omit<Wire<'approval_required'>, 'preview'> & { preview?: string })
  | Wire<'event'>
  | Wire<'result'>
  // The server sends `{error: message, code}`; the page keeps both as one object.
  | { type: 'error'; error: WireError };

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Fields may sit on the line itself or under `data` (an event-shaped line). */
function fields(line: Loose): Loose {
  return isObject(line.data) ? { ...line.data, ...line } : line;
}

function deltaOf(line: Loose): string {
  const data = fields(line);
  return text(data.delta) ?? text(data.text) ?? '';
}

/** The server sends `{error: message, code}`; an `{error: {code, message}}` object is read too. */
function errorOf(value: unknown, code: unknown): WireError {
  if (isObject(value))
    return {
      code: text(value.code) ?? 'error',
      message: text(value.message) ?? 'The run failed.',
    };
  return { code: text(code) ?? 'error', message: text(value) ?? 'The run failed.' };
}

const MAX_ARG = 60;

/**
 * `gmail_send(to: "bob@example.com", subject: "Hi")`, each value clipped, then
 * made visible as the server's previews are (`\r`, `\x1b`, `\u202e`, never acted on).
 */
export function describeCall(tool: string, args: unknown): string {
  if (!isObject(args)) return visibleText(tool);
  const parts = Object.entries(args).map(([key, value]) => {
    const shown =
      typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
    return `${key}: ${shown.length > MAX_ARG ? `${shown.slice(0, MAX_ARG)}…` : shown}`;
  });
  return visibleText(`${tool}(${parts.join(', ')})`);
}

export function toStreamLine(value: unknown): StreamLine | undefined {
  if (!isObject(value)) return undefined;
  const data = fields(value);
  const tool = text(data.tool) ?? text(data.name) ?? text(data.toolName) ?? 'tool';
  const callId = text(data.callId) ?? text(data.id) ?? '';
  const lineType = value.type as WireLine['type'];
  switch (lineType) {
    case 'status':
      return {
        type: 'status',
        status: text(data.status) ?? 'running',
        ...(text(data.runId) ? { runId: text(data.runId) } : {}),
        ...(text(data.threadId) ? { threadId: text(data.threadId) } : {}),
      };
    case 'delta':
    case 'thought_delta':
      return { type: lineType, delta: deltaOf(value) };
    case 'tool_call':
      return {
        type: 'tool_call',
        tool,
        callId,
        args: data.args ?? {},
        summary: text(data.message) ?? describeCall(tool, data.args),
        depth: typeof data.depth === 'number' ? data.depth : 0,
      };
    case 'approval_required':
      return {
        type: 'approval_required',
        tool,
        callId,
        ...(text(data.preview) ? { preview: text(data.preview) } : {}),
      };
    case 'event':
      return isObject(value.event) && typeof value.event.type === 'string'
        ? { type: 'event', event: value.event as unknown as CadreEvent }
        : undefined;
    case 'result':
      return isObject(value.result)
        ? { type: 'result', result: value.result as unknown as RunResponse }
        : undefined;
    case 'error':
      return { type: 'error', error: errorOf(value.error, value.code) };
    default:
      // Every line type the server sends is handled above; anything else is skipped.
      lineType satisfies never;
      return undefined;
  }
}
