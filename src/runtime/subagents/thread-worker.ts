import { parentPort } from 'node:worker_threads';
import { cachedResolver } from '../../model/cached-resolver.js';
import { resolveModelClient } from '../../model/resolve-model.js';
import { builtinTools } from '../../tools/builtin/index.js';
import type { PolicyDecision } from '../../policy/types.js';
import type { ConfirmationDecision } from '../../contracts/confirmation.js';
import { drive, NEW_RUN } from '../loop/executor.js';
import { CostBudget } from '../../cost/cost-budget.js';
import type { FromWorker, ThreadJob, ToWorker } from './thread-protocol.js';

/*
 * The worker side of `execution_mode: threads`: one child run per thread.
 * Events stream back to the parent, which puts them in the run's sequence;
 * side effects are decided by the parent's confirmation handler.
 */
const port = parentPort;
if (port) {
  const controller = new AbortController();
  const decisions = new Map<number, (decision: ConfirmationDecision) => void>();
  const gated = new Map<number, (decision: PolicyDecision) => void>();
  const post = (message: FromWorker): void => port.postMessage(message);
  const run = async (job: ThreadJob): Promise<void> => {
    let asked = 0;
    const resolveOnce = cachedResolver((model: string) =>
      resolveModelClient(model, job.env, { cwd: job.cwd }),
    );
    try {
      const outcome = await drive(job.definition, NEW_RUN, {
        inputs: job.inputs,
        ...(job.history ? { history: job.history } : {}),
        defaultModel: job.model,
        resolveModel: (name) => resolveOnce(name),
        tools: builtinTools,
        workspace: job.workspace,
        ...(job.protectedPaths ? { protectedPaths: job.protectedPaths } : {}),
        runId: job.runId,
        execution: job.execution,
        timeBudgetMs: job.timeBudgetMs,
        ...(job.costLimitUsd !== undefined
          ? { budget: CostBudget.open({ limitUsd: job.costLimitUsd }) }
          : {}),
        // Agents are not shipped to the thread, so a threaded child cannot start its own.
        allowNested: false,
        signal: controller.signal,
        onEvent: (event) => post({ kind: 'event', event }),
        policy: {
          rules: [],
          sideEffects: 'on',
          remote: (call, approvedForRun) =>
            new Promise((resolve) => {
              const id = ++asked;
              gated.set(id, resolve);
              post({ kind: 'gate', id, call, approvedForRun: [...approvedForRun] });
            }),
        },
        confirm: (request) =>
          new Promise((resolve) => {
            const id = ++asked;
            decisions.set(id, resolve);
            post({ kind: 'confirm', id, request });
          }),
      });
      post(
        outcome.status === 'paused'
          ? { kind: 'paused', state: outcome.state, pending: outcome.pending }
          : { kind: 'result', result: outcome.result },
      );
    } catch (error) {
      post({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  };
  port.on('message', (message: ToWorker) => {
    switch (message.kind) {
      case 'start':
        void run(message.job);
        break;
      case 'abort':
        controller.abort();
        break;
      case 'confirmed':
        decisions.get(message.id)?.(message.decision);
        decisions.delete(message.id);
        break;
      case 'gated':
        gated.get(message.id)?.(message.decision);
        gated.delete(message.id);
        break;
      default:
        message satisfies never;
    }
  });
}
