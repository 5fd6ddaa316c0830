import type { CadreEvent, EventInput, WellKnownEventType } from './types.js';

/** Every well-known type; `satisfies` keeps it in step with the data map. */
const WELL_KNOWN = {
  run_started: true,
  run_paused: true,
  run_resumed: true,
  run_taken_over: true,
  turn_started: true,
  thought_delta: true,
  text_delta: true,
  tool_call: true,
  tool_result: true,
  approval_required: true,
  approval_resolved: true,
  grant_applied: true,
  output_emitted: true,
  subagent_started: true,
  subagent_resumed: true,
  subagent_finished: true,
  subagent_paused: true,
  thread_started: true,
  todos_updated: true,
  usage: true,
  context_compacted: true,
  warning: true,
  recovery_started: true,
  model_retry: true,
  final_result: true,
  error: true,
  routing_decided: true,
  domain_finished: true,
  synthesis_started: true,
  workflow_step: true,
  loop_exit_requested: true,
  remote_call: true,
  react_started: true,
  react_thought: true,
  react_action: true,
  react_observation: true,
  react_complete: true,
  react_max_iterations: true,
  decomposition_started: true,
  decomposition_complete: true,
  sub_query_started: true,
  sub_query_completed: true,
  sub_query_failed: true,
} as const satisfies Record<WellKnownEventType, true>;

export const isWellKnownType = (type: string): type is WellKnownEventType =>
  Object.hasOwn(WELL_KNOWN, type);

/** What an emitter may hand over at run time: typed, or an older agent's own type. */
interface LooseInput {
  type: string;
  name?: unknown;
  message: string;
  data?: Record<string, unknown>;
}

/**
 * An emitter's input as one of the closed union's: a well-known or `custom`
 * input as it is, any other type (code written when events were open, an old
 * recording) as `custom` named by that type. The types rule it out; plain
 * JavaScript and stored recordings do not.
 */
export function closedInput(input: EventInput | LooseInput): EventInput {
  const loose = input as LooseInput;
  if (loose.type === 'custom')
    return typeof loose.name === 'string'
      ? (input as EventInput)
      : {
          type: 'custom',
          name: 'custom',
          message: loose.message,
          ...(loose.data ? { data: loose.data } : {}),
        };
  if (isWellKnownType(loose.type)) return input as EventInput;
  return {
    type: 'custom',
    name: loose.type,
    message: loose.message,
    ...(loose.data ? { data: loose.data } : {}),
  };
}

/**
 * A recorded event (a store row, a trajectory) under the closed union: a
 * well-known or `custom` one as it is, any other type (an older run's own
 * event, or a newer version's) as `custom` named by that type. A well-known
 * type's data is as this runtime's emitters wrote it.
 */
export function closedEvent(
  event: Omit<CadreEvent, 'type'> & { type: string; name?: unknown },
): CadreEvent {
  if (event.type === 'custom')
    return {
      ...event,
      type: 'custom',
      name: typeof event.name === 'string' ? event.name : 'custom',
    };
  if (isWellKnownType(event.type)) return event as CadreEvent;
  return { ...event, type: 'custom', name: event.type };
}
