import { describe, expect, it } from 'vitest';
import { ExecutionState } from './execution-state.js';
import { PHASES } from './phases.js';
import { childOf, eventLog, finalData, type Exec } from './test-support.js';

const research: Exec = { id: 'r', path: ['deep_research'] };
const reactRoot: Exec = { id: 'x', path: ['react'] };

function phasesOf(exec: Exec, types: string[]): string[] {
  const log = eventLog();
  const state = new ExecutionState();
  return types.map((type, i) => {
    state.handleEvent(log.add(exec, type, i, type === 'final_result' ? finalData('GOAL') : {}));
    return state.get(exec.id)?.phase ?? '?';
  });
}

describe('ExecutionState', () => {
  it('maps deep_research events to its phases; unknown events leave the phase unchanged', () => {
    expect(
      phasesOf(research, [
        'run_started',
        'decomposition_started',
        'turn_started',
        'decomposition_complete',
        'sub_query_started',
        'something_new',
        'sub_query_failed',
        'synthesis_started',
        'final_result',
      ]),
    ).toEqual([
      PHASES.NOT_STARTED,
      PHASES.DECOMPOSING,
      PHASES.DECOMPOSING,
      PHASES.DECOMPOSING,
      PHASES.EXECUTING,
      PHASES.EXECUTING,
      PHASES.EXECUTING,
      PHASES.SYNTHESIZING,
      PHASES.COMPLETE,
    ]);
  });

  it('maps react events to thinking / acting / observing', () => {
    expect(
      phasesOf(reactRoot, [
        'react_started',
        'react_thought',
        'react_action',
        'react_observation',
        'react_complete',
      ]),
    ).toEqual([PHASES.THINKING, PHASES.THINKING, PHASES.ACTING, PHASES.OBSERVING, PHASES.COMPLETE]);
  });

  it("maps other agents with the executor loop's table, or with tables given to it", () => {
    const chat: Exec = { id: 'c', path: ['chat'] };
    expect(
      phasesOf(chat, ['run_started', 'turn_started', 'tool_call', 'tool_result', 'final_result']),
    ).toEqual([
      PHASES.NOT_STARTED,
      PHASES.THINKING,
      PHASES.ACTING,
      PHASES.OBSERVING,
      PHASES.COMPLETE,
    ]);
    const log = eventLog();
    const state = new ExecutionState({ tables: { chat: { drafting: 'writing' } }, fallback: {} });
    state.handleEvent(log.add(chat, 'drafting', 0));
    state.handleEvent(log.add(research, 'decomposition_started', 1));
    expect(state.get('c')?.phase).toBe('writing');
    expect(state.get('r')?.phase).toBe(PHASES.NOT_STARTED);
  });

  it('tracks every execution of the tree by id: path, depth, status, times, and how it ended', () => {
    const log = eventLog();
    const state = new ExecutionState();
    const child = childOf(research, 'k', 'sub_query');
    state.handleEvent(log.add(research, 'run_started', 0));
    state.handleEvent(
      log.add(research, 'subagent_started', 10, { agent: 'sub_query', executionId: 'k' }),
    );
    expect(state.get('k')).toMatchObject({
      status: 'pending',
      depth: 1,
      parentId: 'r',
      path: ['deep_research', 'sub_query'],
    });
    state.handleEvent(log.add(child, 'run_started', 20, {}, 'Running sub_query'));
    state.handleEvent(log.add(child, 'final_result', 30, finalData('TIMEOUT')));
    expect(state.isComplete()).toBe(false);
    state.handleEvent(log.add(research, 'final_result', 40, finalData('GOAL', 'all done')));
    expect(state.get('k')).toMatchObject({
      status: 'finished',
      phase: PHASES.COMPLETE,
      terminateReason: 'TIMEOUT',
      agent: 'sub_query',
      startedAt: '2030-01-01T00:00:00.020Z',
      finishedAt: '2030-01-01T00:00:00.030Z',
      lastMessage: 'final_result',
    });
    expect(state.root()).toMatchObject({
      executionId: 'r',
      depth: 0,
      status: 'finished',
      terminateReason: 'GOAL',
    });
    expect(state.executions().map((e) => e.executionId)).toEqual(['r', 'k']);
    expect(state.children('r').map((e) => e.executionId)).toEqual(['k']);
    expect(state.isComplete()).toBe(true);
    expect(state.finalResult()?.content).toBe('all done');
    expect(state.statusMessage()).toBe('final_result');
  });

  it('hands out copies, so callers cannot change its state', () => {
    const log = eventLog();
    const state = new ExecutionState();
    state.handleEvent(log.add(research, 'decomposition_started', 0));
    const record = state.get('r');
    if (record) record.phase = 'tampered';
    expect(state.get('r')?.phase).toBe(PHASES.DECOMPOSING);
  });
});
