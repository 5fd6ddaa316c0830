import type { ToolTrace } from '../contracts/run-result.js';
import type { EventDataMap } from './event-data.js';

/**
 * One event shape everywhere: the in-process stream, NDJSON, the store,
 * trajectories and replay. A closed union: each well-known type carries its
 * typed data, and a user's own event is `custom`, its name in `name` and its
 * data open. A check on `type` narrows the data.
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
 * An event a user's agent or tool emits of its own: `name` is its kind, as the
 * user chose it. A stored event of a type this version does not know (an
 * older run's own event, or a newer version's) reads back as one of these.
 */
export type CustomCadreEvent = EventEnvelope & { type: 'custom'; name: string; data: OpenData };

export type CadreEvent = KnownCadreEvent | CustomCadreEvent;

/** The well-known event of one type. */
export type CadreEventOf<T extends WellKnownEventType> = Extract<KnownCadreEvent, { type: T }>;

/** What an emitter of a well-known event gives; the run fills in ids, time and sequence. */
export type KnownEventInput = {
  [T in WellKnownEventType]: { type: T; message: string; data: EventDataMap[T] };
}[WellKnownEventType];

/** A user's own event, as its emitter gives it. */
export interface CustomEventInput {
  type: 'custom';
  name: string;
  message: string;
  data?: Record<string, unknown>;
}

/** What an emitter gives: a well-known event with its data, or a custom one. */
export type EventInput = KnownEventInput | CustomEventInput;

/**
 * Takes an emitter's event. At run time an input of any other type (an agent
 * written before events were closed) is taken as `custom`, named by its type.
 */
export type EventSink = (event: EventInput) => void;

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

/** What a code agent yields: well-known events, checked, its own (`custom`), and its final answer. */
export type AgentEventInput =
  Exclude<KnownEventInput, { type: 'final_result' }> | CustomEventInput | AgentFinalInput;
