import type { Command } from 'commander';
import { loadCommand, SERVE, WORKER } from '../command-packages.js';
import type { ServeCommandOptions, WorkerCommandOptions } from '../commands/serve.js';
import { modelOption, policyOption, trustProjectOption } from '../options/agent-options.js';
import {
  agentsOption,
  dbOption,
  drainSecondsOption,
  logFormatOption,
  logLevelOption,
  serverWorkspaceOption,
  workspaceScopeOption,
} from '../options/server-options.js';
import type { CommandContext } from './command-context.js';

/** `cadre serve`: the HTTP API (and a run worker unless --no-worker). */
export function registerServe(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('serve')
    .description('Serve the HTTP API (runs, streams, approvals, threads, audit) on 127.0.0.1')
    .option('-p, --port <port>', 'port to listen on (0: any free port)', '8787')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .addOption(dbOption())
    .addOption(modelOption('model for agents that name none'))
    .addOption(agentsOption())
    .option('--no-worker', 'serve HTTP only; `cadre worker` processes drive the runs')
    .addOption(serverWorkspaceOption())
    .addOption(workspaceScopeOption())
    .addOption(policyOption())
    .addOption(trustProjectOption())
    .addOption(drainSecondsOption())
    .addOption(logLevelOption())
    .addOption(logFormatOption())
    .action(async (options: ServeCommandOptions) => {
      const { serveCommand } = await loadCommand(() => import('../commands/serve.js'), SERVE);
      setExit(await serveCommand(options, io));
    });
}

/** `cadre worker`: drives queued runs from the shared database, no HTTP. */
export function registerWorker(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('worker')
    .description(
      'Drive queued runs from the shared database (no HTTP); run several beside `serve --no-worker`',
    )
    .addOption(dbOption())
    .addOption(modelOption('model for agents that name none'))
    .addOption(agentsOption())
    .addOption(serverWorkspaceOption())
    .addOption(workspaceScopeOption())
    .addOption(policyOption())
    .addOption(trustProjectOption())
    .addOption(drainSecondsOption())
    .addOption(logLevelOption())
    .addOption(logFormatOption())
    .action(async (options: WorkerCommandOptions) => {
      const { workerCommand } = await loadCommand(() => import('../commands/serve.js'), WORKER);
      setExit(await workerCommand(options, io));
    });
}
