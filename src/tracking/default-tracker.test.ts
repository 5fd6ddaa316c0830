import { describe, expect, it } from 'vitest';
import { DefaultTracker } from './default-tracker.js';
import { childOf, eventLog, finalData, ROOT } from './test-support.js';

describe('DefaultTracker', () => {
  it('shows the latest event message, from any execution, skipping empty ones', () => {
    const log = eventLog();
    const tracker = new DefaultTracker();
    expect(tracker.statusMessage()).toBeUndefined();
    tracker.handleEvent(log.add(ROOT, 'run_started', 0, {}, 'Running agent'));
    tracker.handleEvent(
      log.add(childOf(ROOT, 'c1'), 'sub_query_completed', 5, {}, 'Sub-query 3/5 completed'),
    );
    tracker.handleEvent(log.add(ROOT, 'text_delta', 6, {}, ''));
    expect(tracker.statusMessage()).toBe('Sub-query 3/5 completed');
  });

  it('is completed by the root final_result only, never by a child one', () => {
    const log = eventLog();
    const tracker = new DefaultTracker();
    tracker.handleEvent(
      log.add(childOf(ROOT, 'c1'), 'final_result', 1, finalData('GOAL', 'child')),
    );
    expect(tracker.isComplete()).toBe(false);
    expect(tracker.finalResult()).toBeUndefined();
    tracker.handleEvent(log.add(ROOT, 'final_result', 2, finalData('GOAL', 'root answer')));
    expect(tracker.isComplete()).toBe(true);
    expect(tracker.finalResult()).toMatchObject({
      terminate_reason: 'GOAL',
      content: 'root answer',
    });
  });

  it('keeps the first root result if another arrives', () => {
    const log = eventLog();
    const tracker = new DefaultTracker();
    tracker.handleEvent(log.add(ROOT, 'final_result', 1, finalData('GOAL', 'first')));
    tracker.handleEvent(log.add(ROOT, 'final_result', 2, finalData('ERROR', 'second')));
    expect(tracker.finalResult()?.content).toBe('first');
  });

  it('is complete without a result when the root final_result carries no RunResult', () => {
    const log = eventLog();
    const tracker = new DefaultTracker();
    tracker.handleEvent(log.add(ROOT, 'final_result', 1, { something: 'else' }));
    expect(tracker.isComplete()).toBe(true);
    expect(tracker.finalResult()).toBeUndefined();
  });
});
