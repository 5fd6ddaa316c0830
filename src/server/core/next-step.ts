import type { Message } from '../../model/types.js';
import type { RunStart } from '../../runtime/loop/run-start.js';
import type { Run, RunJob, StartExtras } from '../../store/types.js';
import type { DriveStart } from './drive-types.js';
import type { ServerContext } from './server-context.js';
import { threadHistory } from './thread-context.js';

/** What a new server run starts from: its start job's prompt and the thread history before it. */
export interface NewStep extends StartExtras {
  prompt: string;
  record: boolean;
  history: Message[];
  historySeqs?: readonly number[];
}

/**
 * What a step does: start the run, resume it with the people's decisions, or
 * recover it from its checkpoint (the loop's RunStart, a new run carrying its job).
 */
export type Step = RunStart<NewStep>;

/** The first step of a run this process just started, with the history its request read. */
export function firstStep(start: Extract<DriveStart, { kind: 'new' }>): Step {
  return {
    kind: 'new',
    prompt: startPrompt(start.run),
    record: start.record,
    history: start.history,
    ...startExtras(start.run.job),
  };
}

/**
 * What the store says the run needs next, its stored state read (upgraded
 * from an older version, refused from a newer one) before anything runs.
 */
export async function nextStep(ctx: ServerContext, run: Run): Promise<Step> {
  const state = run.state && (await run.state.read());
  const { job } = run;
  if (state?.status === 'paused' && job?.kind === 'resume')
    return { kind: 'resume', state, decisions: job.decisions };
  if (state?.status === 'running') return { kind: 'recover', state };
  if (!state && job?.kind === 'start') {
    const thread = await threadHistory(ctx.store, run.threadId, job.messageSeq);
    return {
      kind: 'new',
      prompt: job.prompt,
      record: job.record === true,
      ...thread,
      ...startExtras(job),
    };
  }
  throw new Error(
    `Run ${run.id} has nothing to do (state ${state?.status ?? 'none'}, job ${job?.kind ?? 'none'}).`,
  );
}

/** A start job's inputs and fork conversation, when it has them. */
function startExtras(job: RunJob | undefined): StartExtras {
  if (job?.kind !== 'start') return {};
  return {
    ...(job.inputs ? { inputs: job.inputs } : {}),
    ...(job.conversation ? { conversation: job.conversation } : {}),
  };
}

/** The prompt of a run that has not stored its start job yet. */
function startPrompt(run: Run): string {
  return run.job?.kind === 'start' ? run.job.prompt : '';
}
