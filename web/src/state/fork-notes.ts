import type { TrajectoryStepView } from '../api/trajectory-api.js';

/** What a fork's thread says of its origin: the run it came from and the steps it kept. */
export interface ForkNote {
  fromRunId: string;
  /** 1-based: the step the model answered afresh. */
  step: number;
  /** The steps before it, kept as recorded (no model call, no tool run again). */
  kept: KeptStep[];
}

export interface KeptStep {
  number: number;
  agent: string;
  text: string;
  calls: string[];
}

type NoteStorage = Pick<Storage, 'getItem' | 'setItem'>;

export const forkNoteKey = (threadId: string): string => `cadre.fork.${threadId}`;

/** The note for a fork from `step` (0-based) of a recording. */
export function forkNote(
  fromRunId: string,
  steps: readonly TrajectoryStepView[],
  step: number,
): ForkNote {
  const kept = steps
    .filter((s) => s.index < step)
    .map((s) => ({
      number: s.index + 1,
      agent: s.path.join(' › '),
      text: s.text,
      calls: s.calls.map((c) => c.tool),
    }));
  return { fromRunId, step: step + 1, kept };
}

export function writeForkNote(storage: NoteStorage, threadId: string, note: ForkNote): void {
  try {
    storage.setItem(forkNoteKey(threadId), JSON.stringify(note));
  } catch {
    // Storage can be off: the fork then reads as any other thread.
  }
}

export function readForkNote(storage: NoteStorage, threadId: string): ForkNote | undefined {
  try {
    const text = storage.getItem(forkNoteKey(threadId));
    const note = text ? (JSON.parse(text) as Partial<ForkNote>) : undefined;
    if (typeof note?.fromRunId !== 'string' || typeof note.step !== 'number') return undefined;
    return {
      fromRunId: note.fromRunId,
      step: note.step,
      kept: Array.isArray(note.kept) ? note.kept : [],
    };
  } catch {
    return undefined;
  }
}
