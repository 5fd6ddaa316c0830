import type { ToolTrace } from '../contracts/run-result.js';
import type { EventDataMap } from './event-data.js';

/**
 * One event shape everywhere: the in-process stream, NDJSON, the store,
 * trajectories and replay. Well-known types carry typed data; any other type
 * (a code agent's own, or one written by a newer version) is kept verbatim
 * with open data, so recorders never drop what they do not know.
 */

export type * from './event-data.js';

/** Where in the agent tree something happens. */
export interface ExecutionContext {
  executionId: string;
  parentId?: string;
  depth: number;
  /** Agent names from the root, e.g. ['router', 'weather']. */
  path: readonly string[];
}

export type WellKnownEventType = keyof EventDataMap;

/** What every event has besides its type and data: where and when it happened. */
interface EventEnvelope {
  /** Human text, so a generic progress display works for any agent. */
  message: string;
  /** ISO 8601. */
  timestamp: string;
  runId: string;
  executionId: string;
  parentExecutionId?: string;
  depth: number;
  path: readonly string[];
  /** Monotonic per run, across all executions of the tree. */
  seq: number;
}

/**
 * Fields a writer added beyond a type's own (the server stamps `threadId`),
 * or that an older writer left: readable, as unknown, on any event.
 */
type OpenData = Record<string, unknown>;

/** A well-known event: its data as its emitters write it. */
export type KnownCadreEvent = {
  [T in WellKnownEventType]: EventEnvelope & { type: T; data: EventDataMap[T] & OpenData };
}[WellKnownEventType];

/**
 * Any other event. Its `type: string` also matches the well-known names, so
 * a check on `type` alone does not narrow a CadreEvent: consumers narrow
 * with `asKnown` / `isKnownEvent` first, then switch on `type`.
 */
export type CustomCadreEvent = EventEnvelope & { type: string; data: OpenData };

export type CadreEvent = KnownCadreEvent | CustomCadreEvent;

/** The well-known event of one type. */
export type CadreEventOf<T extends WellKnownEventType> = Extract<KnownCadreEvent, { type: T }>;

/** What an emitter of a well-known event gives; the run fills in ids, time and sequence. */
export type KnownEventInput = {
  [T in WellKnownEventType]: { type: T; message: string; data: EventDataMap[T] };
}[WellKnownEventType];

export interface CustomEventInput {
  type: string;
  message: string;
  data?: Record<string, unknown>;
}

/** What an emitter gives: a well-known event, or any other with open data. */
export type EventInput = KnownEventInput | CustomEventInput;

/**
 * The input for one type: a well-known type's data is checked, any other is
 * open. A plain union could not check it, since `type: string` matches every name.
 */
export type EventInputFor<T extends string> = T extends WellKnownEventType
  ? Extract<KnownEventInput, { type: T }>
  : { type: T; message: string; data?: Record<string, unknown> };

/** Generic over the type so that `emit({ type: 'tool_call', data })` checks `data`. */
export type EventSink = <T extends string>(event: EventInputFor<T>) => void;

/** A well-known event of one type, as an emitter gives it. */
export type EventInputOf<T extends WellKnownEventType> = Extract<KnownEventInput, { type: T }>;

/**
 * A code agent's last event: the answer, which the runner turns into the
 * execution's RunResult (and its own `final_result { result }`).
 */
export interface AgentFinalInput {
  type: 'final_result';
  message: string;
  data: { content: string; output?: unknown; traces?: ToolTrace[] };
}

/** What a built-in code agent yields: well-known events, checked, and its final answer. */
export type AgentEventInput = Exclude<KnownEventInput, { type: 'final_result' }> | AgentFinalInput;
