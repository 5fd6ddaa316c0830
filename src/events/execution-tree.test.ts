import { describe, expect, it } from 'vitest';
import {
  buildExecutionTree,
  childNodes,
  EMPTY_TREE,
  nodeOf,
  reduceExecutionTree,
  rootNodes,
} from './execution-tree.js';
import type { TerminateReason } from '../contracts/run-result.js';
import type { CadreEvent, EventDataMap, WellKnownEventType } from './types.js';

/** A fixture's data: each field it gives has its type's type; a reader must cope with the rest missing. */
type PartialData<T extends WellKnownEventType> = {
  [K in keyof EventDataMap[T]]?: EventDataMap[T][K] extends object
    ? Partial<EventDataMap[T][K]>
    : EventDataMap[T][K];
};

interface Exec {
  id: string;
  parent?: string;
  path: string[];
}

const ROOT: Exec = { id: 'root', path: ['boss'] };
const childOf = (parent: Exec, id: string, agent = 'kid'): Exec => ({
  id,
  parent: parent.id,
  path: [...parent.path, agent],
});

/** Hand-made events in order; `at` is milliseconds after a fixed epoch. */
function eventLog() {
  const events: CadreEvent[] = [];
  const base = Date.parse('2030-01-01T00:00:00.000Z');
  return {
    events,
    /** A custom event's data is open; its name rides in `data.name` here, for brevity. */
    add<T extends WellKnownEventType | 'custom'>(
      exec: Exec,
      type: T,
      at: number,
      data: T extends WellKnownEventType ? PartialData<T> : { name: string } = {} as never,
    ): CadreEvent {
      const event = {
        type,
        ...(type === 'custom' ? { name: (data as { name: string }).name } : {}),
        message: type,
        timestamp: new Date(base + at).toISOString(),
        data,
        runId: 'run',
        executionId: exec.id,
        ...(exec.parent ? { parentExecutionId: exec.parent } : {}),
        depth: exec.path.length - 1,
        path: exec.path,
        seq: events.length + 1,
      } as CadreEvent;
      events.push(event);
      return event;
    },
  };
}

const finalData = (reason: TerminateReason) => ({
  result: { terminate_reason: reason, content: 'x' },
});

describe('the execution tree reducer', () => {
  it('announces a child at subagent_started, runs it at its first event and ends it at its final_result', () => {
    const log = eventLog();
    const kid = childOf(ROOT, 'k');
    log.add(ROOT, 'run_started', 0, { agent: 'boss', model: 'm' });
    log.add(ROOT, 'tool_call', 5, { callId: 'c1', tool: 'kid', args: {} });
    log.add(ROOT, 'subagent_started', 10, {
      agent: 'kid',
      executionId: 'k',
      depth: 1,
      ephemeral: false,
      callId: 'c1',
    });
    const announced = buildExecutionTree(log.events);
    expect(announced.nodes.k).toMatchObject({
      status: 'pending',
      parentId: 'root',
      spawnedBy: 'c1',
      depth: 1,
      path: ['boss', 'kid'],
    });
    expect(announced.nodes.k?.startedAt).toBeUndefined();
    expect(announced.nodes.root?.openCalls.c1).toEqual({ tool: 'kid', spawned: true });

    log.add(kid, 'run_started', 20);
    expect(buildExecutionTree(log.events).nodes.k).toMatchObject({
      status: 'running',
      startedAt: '2030-01-01T00:00:00.020Z',
      firstSeq: 4,
    });
    log.add(kid, 'final_result', 30, finalData('TIMEOUT'));
    log.add(ROOT, 'tool_result', 35, { callId: 'c1', tool: 'kid', ok: true, durationMs: 30 });
    log.add(ROOT, 'final_result', 40, finalData('GOAL'));
    const tree = buildExecutionTree(log.events);
    expect(tree.nodes.k).toMatchObject({
      status: 'finished',
      terminateReason: 'TIMEOUT',
      agent: 'kid',
      startedAt: '2030-01-01T00:00:00.020Z',
      endedAt: '2030-01-01T00:00:00.030Z',
    });
    expect(tree.nodes.root).toMatchObject({
      status: 'finished',
      terminateReason: 'GOAL',
      openCalls: {},
    });
    expect(rootNodes(tree).map((n) => n.executionId)).toEqual(['root']);
    expect(childNodes(tree, 'root').map((n) => n.executionId)).toEqual(['k']);
  });

  it("takes a child's end from its parent when the child could not say it, and pauses", () => {
    const log = eventLog();
    log.add(ROOT, 'subagent_started', 0, { agent: 'a', executionId: 'a', depth: 1 });
    log.add(ROOT, 'subagent_started', 1, { agent: 'b', executionId: 'b', depth: 1 });
    log.add(ROOT, 'subagent_finished', 2, {
      agent: 'a',
      executionId: 'a',
      terminate_reason: 'ERROR',
    });
    log.add(ROOT, 'subagent_paused', 3, { agent: 'b', executionId: 'b' });
    let tree = buildExecutionTree(log.events);
    expect(tree.nodes.a).toMatchObject({ status: 'finished', terminateReason: 'ERROR' });
    expect(tree.nodes.b?.status).toBe('paused');
    // Resumed: the same execution is announced again.
    tree = reduceExecutionTree(
      tree,
      log.add(ROOT, 'subagent_resumed', 4, { agent: 'b', executionId: 'b', depth: 1 }),
    );
    expect(tree.nodes.b?.status).toBe('pending');
    tree = reduceExecutionTree(tree, log.add(childOf(ROOT, 'b', 'b'), 'run_resumed', 5));
    expect(tree.nodes.b?.status).toBe('running');
  });

  it('pauses an execution at its run_paused and runs it again at its next event', () => {
    const log = eventLog();
    log.add(ROOT, 'run_started', 0);
    log.add(ROOT, 'run_paused', 1, { pending: [] });
    expect(buildExecutionTree(log.events).nodes.root?.status).toBe('paused');
    log.add(ROOT, 'run_resumed', 2, { decisions: 1 });
    expect(buildExecutionTree(log.events).nodes.root?.status).toBe('running');
  });

  it("reads ids as the tree's own keys only, never Object's", () => {
    const log = eventLog();
    log.add({ id: 'constructor', path: ['boss'] }, 'run_started', 0);
    log.add({ id: 'k', parent: 'toString', path: ['boss', 'kid'] }, 'run_started', 1);
    log.add(ROOT, 'tool_result', 2, { callId: 'hasOwnProperty', tool: 't', ok: true });
    const tree = buildExecutionTree(log.events);
    expect(tree.nodes.constructor).toMatchObject({ executionId: 'constructor', status: 'running' });
    expect(nodeOf(tree, 'valueOf')).toBeUndefined();
    expect(rootNodes(tree).map((n) => n.executionId)).toEqual(['constructor', 'k', 'root']);
  });

  it('guesses the spawning call for events that do not name it: the agent tool, then task, then the only open call', () => {
    const log = eventLog();
    log.add(ROOT, 'tool_call', 0, { callId: 'x', tool: 'echo', args: {} });
    log.add(ROOT, 'tool_call', 1, { callId: 'r1', tool: 'reader', args: {} });
    log.add(ROOT, 'tool_call', 2, { callId: 't1', tool: 'task', args: {} });
    log.add(ROOT, 'subagent_started', 3, { agent: 'reader', executionId: 'c1' });
    log.add(ROOT, 'subagent_started', 4, { agent: 'reader', executionId: 'c2' });
    log.add(ROOT, 'subagent_started', 5, { agent: 'reader', executionId: 'c3' });
    const tree = buildExecutionTree(log.events);
    expect(['c1', 'c2', 'c3'].map((id) => tree.nodes[id]?.spawnedBy)).toEqual([
      'r1',
      't1',
      undefined,
    ]);
    const lone = eventLog();
    lone.add(ROOT, 'approval_required', 0, { callId: 'only', tool: 'delegate', args: {} });
    lone.add(ROOT, 'subagent_started', 1, { agent: 'helper', executionId: 'h' });
    expect(buildExecutionTree(lone.events).nodes.h?.spawnedBy).toBe('only');
  });

  it("sums an execution's own usage: a missing total is its parts, a cost only where priced", () => {
    const log = eventLog();
    const kid = childOf(ROOT, 'k');
    log.add(ROOT, 'usage', 0, {
      inputTokens: 10,
      outputTokens: 5,
      totalTokens: 15,
      costUsd: 0.002,
    });
    log.add(kid, 'usage', 1, { inputTokens: 3, outputTokens: 2 });
    log.add(ROOT, 'usage', 2, { inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    const tree = buildExecutionTree(log.events);
    expect(tree.nodes.root?.usage).toEqual({
      inputTokens: 11,
      outputTokens: 6,
      thoughtTokens: 0,
      totalTokens: 17,
      costUsd: 0.002,
    });
    expect(tree.nodes.k?.usage).toEqual({
      inputTokens: 3,
      outputTokens: 2,
      thoughtTokens: 0,
      totalTokens: 5,
    });
  });

  it("places an execution whose parent's events are missing at the top, and times events of unknown types", () => {
    const log = eventLog();
    const orphan = childOf({ id: 'gone', path: ['boss'] }, 'o');
    log.add(orphan, 'sub_query_completed', 7, { answer: 'a' });
    log.add(orphan, 'custom', 9, { name: 'something_new' });
    const tree = buildExecutionTree(log.events);
    expect(rootNodes(tree).map((n) => n.executionId)).toEqual(['o']);
    expect(tree.nodes.o).toMatchObject({
      parentId: 'gone',
      status: 'running',
      startedAt: '2030-01-01T00:00:00.007Z',
      endedAt: '2030-01-01T00:00:00.009Z',
    });
  });

  it('is pure: the tree it is given never changes', () => {
    const log = eventLog();
    const before = reduceExecutionTree(EMPTY_TREE, log.add(ROOT, 'run_started', 0));
    const snapshot = structuredClone(before);
    reduceExecutionTree(before, log.add(ROOT, 'tool_call', 1, { callId: 'c', tool: 't' }));
    reduceExecutionTree(before, log.add(ROOT, 'final_result', 2, finalData('GOAL')));
    expect(before).toEqual(snapshot);
    expect(EMPTY_TREE).toEqual({ nodes: {} });
  });
});
