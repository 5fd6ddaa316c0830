import type { CadreEvent, KnownCadreEvent, WellKnownEventType } from './types.js';

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

/**
 * True when the event's type is well known, so a switch on `type` narrows
 * its data. The data is trusted to be what the emitters write: events come
 * from this runtime's own emitters, live or stored.
 */
export const isKnownEvent = (event: CadreEvent): event is KnownCadreEvent =>
  isWellKnownType(event.type);

/** The event as a well-known one, or undefined for a type nobody here emits. */
export const asKnown = (event: CadreEvent): KnownCadreEvent | undefined =>
  isKnownEvent(event) ? event : undefined;
