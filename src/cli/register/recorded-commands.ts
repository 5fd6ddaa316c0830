import type { Command } from 'commander';
import type { EvalCommandOptions } from '../commands/eval.js';
import type { ReplayCommandOptions } from '../commands/replay.js';
import { collect } from '../options/collect.js';
import { approveOption, modelOption, workspaceOption } from '../options/agent-options.js';
import { jsonOption, quietOption, recordOption } from '../options/output-options.js';
import type { CommandContext } from './command-context.js';

/** `cadre replay <trajectory>` */
export function registerReplay(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('replay')
    .description(
      'Re-run a recorded trajectory offline: recorded model answers and tool results, no side effects',
    )
    .argument('<trajectory>', 'a trajectory file (cadre run --record)')
    .option(
      '--agent <file|name>',
      'run this definition (a file or an agent name) instead of the recorded one, to see where it diverges',
    )
    .option('--strict', 'a divergence from the recording is an error')
    .option('--live-tools', 're-run read-only tools for real (side-effecting tools never run)')
    .option(
      '--until <n>',
      'replay n model steps, then continue live (--model, the agent model or CADRE_MODEL)',
    )
    .addOption(modelOption('the live model a fork (--until) continues with'))
    .option('--timing [scale]', 'replay the recorded delays, scaled (default 1)')
    .addOption(workspaceOption('folder live tools are confined to (default: current folder)'))
    .addOption(approveOption('approve a side-effecting tool after a fork (repeatable)'))
    .addOption(recordOption('record the replayed run (e.g. a fork) as a new trajectory'))
    .addOption(jsonOption('print {result, replay} as JSON'))
    .addOption(quietOption())
    .action(async (file: string, options: ReplayCommandOptions) => {
      const { replayCommand } = await import('../commands/replay.js');
      setExit(await replayCommand(file, options, io));
    });
}

/** `cadre eval <agent> --dataset <path>` */
export function registerEval(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('eval')
    .description('Score an agent on a dataset (JSONL rows, or a folder of trajectories)')
    .argument('<agent>', 'an agent definition file, or the name of an agent `cadre agents` lists')
    .requiredOption('-d, --dataset <path>', 'a .jsonl file or a folder of trajectories')
    .option(
      '-s, --scorer <name>',
      'exact, contains, regex, json_schema[=file], tool_called, llm_judge (repeatable)',
      collect,
      [],
    )
    .addOption(modelOption('model for the agent (a fresh client per row)'))
    .option(
      '--judge-model <model>',
      'model for llm_judge (default: --model, then the judge definition)',
    )
    .option('--judge <file>', 'judge definition (default: examples/agents/judge.yaml)')
    .option('-c, --concurrency <n>', 'rows run at once', '4')
    .option('--repeat <k>', 'run every row k times', '1')
    .option('--retries <n>', 'retries of a row whose run fails', '1')
    .option('--min-score <x>', 'exit 1 when a scorer mean is below x (0..1)')
    .addOption(workspaceOption())
    .addOption(approveOption("approve a side-effecting tool ('all' for every tool; repeatable)"))
    .addOption(jsonOption('print the full report as JSON'))
    .action(async (agent: string, options: EvalCommandOptions) => {
      const { evalCommand } = await import('../commands/eval.js');
      setExit(await evalCommand(agent, options, io));
    });
}
