import { closedEvent } from '../events/known-events.js';
import type { CadreEvent } from '../events/types.js';
import { parseStored, storedEventSchema } from './stored-json.js';

/** Fields of a final result that carry the answer text (the same text for a chat agent). */
const ANSWER_FIELDS = ['final_message', 'content', 'output'] as const;
type AnswerField = (typeof ANSWER_FIELDS)[number];

/**
 * How a stored final_result names the answer it left out: `reply` is the
 * run's stored assistant message, `final_message` the field kept in the event.
 */
interface AnswerRef {
  in: 'reply' | 'final_message';
  fields: AnswerField[];
}

/** Where in the run's reply a delta's text is, when the row left it out. */
interface TextRef {
  from: number;
  to: number;
}

/**
 * A row's event: its type as written, which may be one this version does
 * not know (an older run's own event, before they were `custom`).
 */
export type StoredEvent = Omit<CadreEvent, 'message' | 'type'> & {
  type: string;
  name?: string;
  message?: string;
  storedAnswer?: AnswerRef;
  storedText?: TextRef;
};

/** Below this, a delta keeps its text: looking it up in the reply would cost more than it saves. */
const REF_MIN_CHARS = 4_096;

/**
 * Stores a batch of events the way `storedEventJson` does, and a large top-level
 * text delta whose text the run's reply (`reply`, stored with this batch) holds
 * as a range of that reply: a long answer is then stored once, not twice.
 */
export function storedEventsJson(events: readonly CadreEvent[], reply?: string): string[] {
  let cursor = 0;
  return events.map((event) => {
    const text = event.data.text;
    if (
      reply === undefined ||
      event.type !== 'text_delta' ||
      event.depth !== 0 ||
      typeof text !== 'string' ||
      text.length < REF_MIN_CHARS ||
      event.message !== text
    )
      return storedEventJson(event, reply);
    // Deltas come in the reply's order: look where the last one ended first.
    const from = reply.startsWith(text, cursor) ? cursor : reply.indexOf(text, cursor);
    if (from < 0) return storedEventJson(event, reply);
    cursor = from + text.length;
    const { message: _copy, ...rest } = event;
    const { text: _text, ...data } = event.data;
    return JSON.stringify({ ...rest, data, storedText: { from, to: cursor } });
  });
}

/**
 * An event as one row holds it: the answer text once. A delta's `message`
 * repeats `data.text`, and a final result repeats its answer up to three
 * times, all of which the run's reply message (`reply`) already holds.
 */
export function storedEventJson(event: CadreEvent, reply?: string): string {
  return JSON.stringify(storedForm(event, reply));
}

function storedForm(event: CadreEvent, reply: string | undefined): StoredEvent {
  if (isDelta(event) && event.message === event.data.text) {
    const { message: _copy, ...rest } = event;
    return rest;
  }
  if (event.type !== 'final_result') return event;
  const result = resultOf(event);
  if (!result || typeof result.final_message !== 'string') return event;
  const answer = result.final_message;
  const top = event.depth === 0 && reply !== undefined && reply === answer;
  const fields = ANSWER_FIELDS.filter(
    (field) => result[field] === answer && (top || field !== 'final_message'),
  );
  if (fields.length === 0) return event;
  const kept = { ...result };
  for (const field of fields) delete kept[field];
  return {
    ...event,
    data: { ...event.data, result: kept },
    storedAnswer: { in: top ? 'reply' : 'final_message', fields },
  };
}

/** A row's JSON as stored, checked by its schema, to be made whole with `restoreEvent`. */
export function parseStoredEvent(json: string): StoredEvent {
  return parseStored('event', storedEventSchema, json) as StoredEvent;
}

/** Whether the row left its answer in the run's reply (one lookup then serves a whole batch). */
export function wantsReply(stored: StoredEvent): boolean {
  return stored.storedAnswer?.in === 'reply' || stored.storedText !== undefined;
}

/**
 * The event as it was emitted; `reply` is the run's reply message, for a
 * result that points at it. A type this version does not know is read as
 * `custom`, named by that type, so the union stays closed for readers.
 */
export function restoreEvent(stored: StoredEvent, reply: string | undefined): CadreEvent {
  if (stored.storedText) {
    const { storedText, ...event } = stored;
    const text = reply?.slice(storedText.from, storedText.to) ?? '';
    return closedEvent({ ...event, message: text, data: { ...event.data, text } });
  }
  const { storedAnswer, ...event } = stored;
  // A delta's message was its text; a row with no message otherwise reads as empty.
  const message = event.message ?? (isDelta(event) ? String(event.data.text) : '');
  const whole = { ...event, message };
  if (storedAnswer) {
    const result = { ...resultOf(event) };
    const text = storedAnswer.in === 'reply' ? reply : result.final_message;
    if (text !== undefined) for (const field of storedAnswer.fields) result[field] = text;
    whole.data = { ...event.data, result };
  }
  return closedEvent(whole);
}

function isDelta(event: { type: string; data: Record<string, unknown> }): boolean {
  return (
    (event.type === 'text_delta' || event.type === 'thought_delta') &&
    typeof event.data.text === 'string'
  );
}

function resultOf(event: { data: Record<string, unknown> }): Record<string, unknown> | undefined {
  const result = event.data.result;
  return result !== null && typeof result === 'object' && !Array.isArray(result)
    ? (result as Record<string, unknown>)
    : undefined;
}
