import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ToolExecutionError } from '../../errors/cadre-error.js';
import { DEFAULT_GATE_POLICY, passGate } from '../../policy/tool-gate.js';
import type { PolicyDecision } from '../../policy/types.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { SpawnServices } from './spawn-services.js';
import type { FromWorker, ThreadJob, ToWorker } from './thread-protocol.js';
import { ChildLaunchPaused } from './child-pause.js';

/** Starts the worker entry: compiled JS in a build, the TS source through jiti in development. */
function startWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    const entry = join(dirname(here), 'thread-worker.ts');
    const boot = `import('jiti').then(({ createJiti }) => createJiti(${JSON.stringify(entry)}).import(${JSON.stringify(entry)}))`;
    return new Worker(boot, { eval: true });
  }
  return new Worker(new URL('./thread-worker.js', import.meta.url));
}

/**
 * Runs one child in a worker thread: its events join the run's stream, its
 * side effects go through this process's confirmation handler, and
 * cancelling stops it (terminated if it does not stop promptly).
 */
export function runInThread(
  services: SpawnServices,
  job: ThreadJob,
  signal: AbortSignal,
): Promise<RunResult> {
  const worker = startWorker();
  const send = (message: ToWorker): void => worker.postMessage(message);
  return new Promise<RunResult>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      outcome();
      void worker.terminate();
    };
    const onAbort = (): void => {
      send({ kind: 'abort' });
      // The child reports ABORTED itself; a thread stuck in a tool is stopped anyway.
      void services.clock
        .sleep(2000, undefined, { background: true })
        .then(() => finish(() => reject(signal.reason as Error)));
    };
    worker.on('message', (message: FromWorker) => {
      switch (message.kind) {
        case 'event':
          services.events.forward(message.event);
          break;
        case 'confirm':
          // Whatever happens to the decision, the worker gets an answer (never left waiting).
          services
            .confirm(message.request, signal)
            .catch(() => ({ kind: 'reject' as const, feedback: 'No decision could be made.' }))
            .then(
              (decision) => send({ kind: 'confirmed', id: message.id, decision }),
              () => undefined,
            );
          break;
        case 'gate':
          // A failing check refuses the call: the worker always gets an answer.
          passGate(
            services.policy ?? DEFAULT_GATE_POLICY,
            services.interceptors ?? [],
            message.call,
            message.approvedForRun,
            signal,
          )
            .catch((): PolicyDecision => ({ mode: 'deny', reason: 'The policy check failed.' }))
            .then(
              (decision) => send({ kind: 'gated', id: message.id, decision }),
              () => undefined,
            );
          break;
        case 'result':
          finish(() => resolve(message.result));
          break;
        case 'paused':
          finish(() => reject(new ChildLaunchPaused(message.state, message.pending)));
          break;
        case 'error':
          finish(() => reject(new ToolExecutionError(message.message)));
          break;
        default:
          message satisfies never;
      }
    });
    worker.on('error', (error) =>
      finish(() => reject(new ToolExecutionError(`Worker thread failed: ${error.message}`))),
    );
    worker.on('exit', (code) =>
      finish(() =>
        reject(new ToolExecutionError(`Worker thread exited (${code}) before finishing.`)),
      ),
    );
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    services.events.sinkFor(job.execution)({
      type: 'thread_started',
      message: `${job.definition.name} runs in worker thread ${worker.threadId}`,
      data: { threadId: worker.threadId },
    });
    send({ kind: 'start', job });
  });
}
