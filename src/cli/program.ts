import { Command, CommanderError } from 'commander';
import type { CliIO } from './cli-io.js';
import { EXIT } from './cli-io.js';
import { CadreError } from '../errors/cadre-error.js';
import { missingPackage } from '../util/optional-import.js';
import { reportError } from './report-error.js';
import { createStyle } from './style.js';
import { helpAfter } from './help-text.js';
import { packageVersion } from './package-version.js';
import { expandPromptFlag, PROMPT_COMMAND } from './prompt-flag.js';
import type { CompletionCommand } from './commands/completion.js';
import { registerChat, registerMcp, registerRun } from './register/agent-commands.js';
import { registerAudit } from './register/audit-commands.js';
import type { CommandContext } from './register/command-context.js';
import { registerGrants } from './register/grants-commands.js';
import {
  registerAgents,
  registerInit,
  registerSchema,
  registerTools,
  registerTrust,
  registerValidate,
} from './register/project-commands.js';
import { registerEval, registerReplay } from './register/recorded-commands.js';
import { registerServe, registerWorker } from './register/server-commands.js';
import { registerToken } from './register/token-commands.js';
import { registerModels } from './register/models-commands.js';

/** The commands in the order `cadre --help` lists them. */
export const COMMANDS: ReadonlyArray<(program: Command, context: CommandContext) => void> = [
  registerInit,
  registerRun,
  registerValidate,
  registerChat,
  registerSchema,
  registerAgents,
  registerTools,
  registerModels,
  registerTrust,
  registerReplay,
  registerEval,
  registerMcp,
  registerServe,
  registerWorker,
  registerToken,
  registerGrants,
  registerAudit,
];

/** Parses argv and runs one command; returns the exit code. Commands load lazily to keep start-up fast. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  let exitCode: number = EXIT.ok;
  const context: CommandContext = {
    io,
    setExit: (code) => {
      exitCode = code;
    },
  };
  const program = new Command()
    .name('cadre')
    .description('Run declarative LLM agents.')
    .version(packageVersion())
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  for (const register of COMMANDS) register(program, context);

  program
    .command('completion')
    .description('Print a shell completion script for bash, zsh or fish')
    .argument('<shell>', 'bash, zsh or fish')
    .action(async (shell: string) => {
      const { completionCommand } = await import('./commands/completion.js');
      exitCode = completionCommand(shell, completionCommands(program), io);
    });

  // Every command's help ends with examples and the environment variables it reads.
  program.addHelpText('after', PROGRAM_HELP);
  for (const command of program.commands) {
    const after = helpAfter(command.name());
    if (after) command.addHelpText('after', after);
  }

  try {
    const commands = [...program.commands.map((command) => command.name()), 'help'];
    await program.parseAsync([...expandPromptFlag(argv, commands)], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.failed;
    }
    // A command that could not load (a package left out of the install): its message, exit 2.
    if (error instanceof CadreError || missingPackage(error) !== undefined)
      return reportError(error, io.stderr, createStyle(io.isTTY && !io.env.NO_COLOR));
    throw error;
  }
  return exitCode;
}

/** The commands, their flags and subcommands, for shell completion. */
function completionCommands(command: Command): CompletionCommand[] {
  return command.commands
    .filter((sub) => sub.name() !== PROMPT_COMMAND)
    .map((sub) => ({
      name: sub.name(),
      flags: sub.options.flatMap((option) => (option.long ? [option.long] : [])),
      subcommands: completionCommands(sub),
    }));
}

const PROGRAM_HELP = `
Examples:
  $ cadre init                                   # a starter agent, tool and policy here
  $ cadre run helper "How many words are in README.md?"
  $ cadre -p "Summarize README.md"               # one run of the default agent, as claude -p
  $ git diff | cadre run reviewer                # no prompt given: it is read from stdin
  $ cadre chat
  $ cadre serve                                  # the API and the web page on 127.0.0.1:8787

\`cadre -p "prompt"\` takes the flags of \`cadre run\` and runs ACTIVE_AGENT_PATH (a file
or a name), else the built-in assistant, as \`cadre chat\` with no agent does.
Each command's --help lists the environment variables it reads.`;
