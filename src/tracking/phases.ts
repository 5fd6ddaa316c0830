/** Well-known phases (authoring guide 002); agents may use others. */
export const PHASES = {
  NOT_STARTED: 'not_started',
  DECOMPOSING: 'decomposing',
  EXECUTING: 'executing',
  SYNTHESIZING: 'synthesizing',
  THINKING: 'thinking',
  ACTING: 'acting',
  OBSERVING: 'observing',
  COMPLETE: 'complete',
} as const;

export type WellKnownPhase = (typeof PHASES)[keyof typeof PHASES];
export type Phase = WellKnownPhase | (string & {});

/** Event type → the phase it moves an execution into. */
export type PhaseTable = Readonly<Record<string, Phase>>;

export const DEEP_RESEARCH_PHASES: PhaseTable = {
  decomposition_started: PHASES.DECOMPOSING,
  decomposition_complete: PHASES.DECOMPOSING,
  sub_query_started: PHASES.EXECUTING,
  sub_query_completed: PHASES.EXECUTING,
  sub_query_failed: PHASES.EXECUTING,
  synthesis_started: PHASES.SYNTHESIZING,
  final_result: PHASES.COMPLETE,
};

export const REACT_PHASES: PhaseTable = {
  react_started: PHASES.THINKING,
  react_thought: PHASES.THINKING,
  react_action: PHASES.ACTING,
  react_observation: PHASES.OBSERVING,
  react_complete: PHASES.COMPLETE,
  react_max_iterations: PHASES.COMPLETE,
  final_result: PHASES.COMPLETE,
};

/** Declarative agents: the executor's tool-calling loop. */
export const LOOP_PHASES: PhaseTable = {
  turn_started: PHASES.THINKING,
  tool_call: PHASES.ACTING,
  tool_result: PHASES.OBSERVING,
  final_result: PHASES.COMPLETE,
};

/** Tables by agent name; any other agent uses LOOP_PHASES. */
export const DEFAULT_PHASE_TABLES: Readonly<Record<string, PhaseTable>> = {
  deep_research: DEEP_RESEARCH_PHASES,
  react: REACT_PHASES,
};

/** The phase after `eventType`; an event the table does not know leaves the phase as it was. */
export function nextPhase(table: PhaseTable, eventType: string, current: Phase): Phase {
  return Object.hasOwn(table, eventType) ? (table[eventType] as Phase) : current;
}
