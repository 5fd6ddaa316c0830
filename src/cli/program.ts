import { Command, CommanderError, Option } from 'commander';
import type { CliIO } from './cli-io.js';
import { EXIT } from './cli-io.js';
import { AUDIT, loadCommand, MCP, SERVE, TOKEN, WORKER } from './command-packages.js';
import { CadreError } from '../errors/cadre-error.js';
import { missingPackage } from '../util/optional-import.js';
import { grantsCommands } from './grants-commands.js';
import { reportError } from './report-error.js';
import { createStyle } from './style.js';
import { helpAfter } from './help-text.js';
import type { CompletionCommand } from './commands/completion.js';
import type { EvalCommandOptions } from './commands/eval.js';
import type { McpCommandOptions } from './commands/mcp.js';
import type { RunCommandOptions } from './commands/run.js';
import type { ReplayCommandOptions } from './commands/replay.js';
import type { ServeCommandOptions, WorkerCommandOptions } from './commands/serve.js';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Parses argv and runs one command; returns the exit code. Commands load lazily to keep start-up fast. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command()
    .name('cadre')
    .description('Run declarative LLM agents.')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  program
    .command('init')
    .description(
      'Start a project: agents/helper.yaml, tools/word-count.tool.ts, policy.yaml and .cadre/ in .gitignore (never overwrites)',
    )
    .argument('[dir]', 'folder to set up (default: the current folder)')
    .action(async (dir: string | undefined) => {
      const { initCommand } = await import('./commands/init.js');
      exitCode = await initCommand(dir, io);
    });

  program
    .command('run')
    .description(
      'Run an agent: a definition file (YAML, JSON, Markdown or TS module) or a discovered agent by name',
    )
    .argument('<agent>', 'an agent definition file, or the name of an agent `cadre agents` lists')
    .argument('[prompt...]', "the user's message, for agents that take a prompt")
    .option('-i, --input <key=value>', 'an input value (repeatable)', collect, [])
    .option(
      '-m, --model <model>',
      'model to use, e.g. gemini-2.5-flash, openai:gpt-4.1, ollama:qwen3',
    )
    .option('-w, --workspace <dir>', 'folder file tools are confined to (default: current folder)')
    .option(
      '--approve <tool>',
      "approve a side-effecting tool without asking ('all' for every tool; repeatable)",
      collect,
      [],
    )
    .option('--json', 'print only the result object, as JSON')
    .option('-q, --quiet', 'no progress output')
    .option('--record <file>', 'record the run as a trajectory (JSON) for replay and evals')
    .option('--policy <file>', 'a YAML policy file (rules, trust); default CADRE_POLICY')
    .action(async (file: string, prompt: string[], options: RunCommandOptions) => {
      const { runCommand } = await import('./commands/run.js');
      exitCode = await runCommand(file, prompt, options, io);
    });

  program
    .command('validate')
    .description('Check agent definitions; exit 0 when all are valid, 1 otherwise')
    .argument('[paths...]', 'files or folders')
    .option(
      '--strict',
      "also require the spec's required fields (inputConfig, outputConfig, query, systemPrompt)",
    )
    .action(async (paths: string[], options: { strict?: boolean }) => {
      const { validateCommand } = await import('./commands/validate.js');
      exitCode = await validateCommand(paths, options, io);
    });

  program
    .command('chat')
    .description(
      'Talk to an agent in the terminal (default: ACTIVE_AGENT_PATH, else the built-in assistant)',
    )
    .argument('[agent]', 'a discovered agent name or a definition file')
    .option('-m, --model <model>', 'model to use')
    .option(
      '--approve <tool>',
      "approve a side-effecting tool without asking ('all' for every tool; repeatable)",
      collect,
      [],
    )
    .option('--policy <file>', 'a YAML policy file (rules, trust); default CADRE_POLICY')
    .action(
      async (
        agent: string | undefined,
        options: { model?: string; approve: string[]; policy?: string },
      ) => {
        const { chatCommand } = await import('./commands/chat.js');
        exitCode = await chatCommand(agent, options, io);
      },
    );

  program
    .command('schema')
    .description('Print the JSON Schema of the agent definition format')
    .action(async () => {
      const { schemaCommand } = await import('./commands/schema.js');
      exitCode = schemaCommand(io);
    });

  program
    .command('agents')
    .description('List the agent definitions found in ./agents and .cadre/agents (or in a folder)')
    .argument('[dir]', 'folder to list')
    .action(async (dir: string | undefined) => {
      const { agentsCommand } = await import('./commands/agents.js');
      exitCode = await agentsCommand(dir, io);
    });

  program
    .command('tools')
    .description(
      'List the tools agents can name: built-ins and code tools in tools/, .cadre/tools and ~/.cadre/tools',
    )
    .option('--json', 'print the tools as JSON')
    .action(async (options: { json?: boolean }) => {
      const { toolsCommand } = await import('./commands/tools.js');
      exitCode = await toolsCommand(options, io);
    });

  program
    .command('replay')
    .description(
      'Re-run a recorded trajectory offline: recorded model answers and tool results, no side effects',
    )
    .argument('<trajectory>', 'a trajectory file (cadre run --record)')
    .option(
      '--agent <file>',
      'run this definition instead of the recorded one, to see where it diverges',
    )
    .option('--strict', 'a divergence from the recording is an error')
    .option('--live-tools', 're-run read-only tools for real (side-effecting tools never run)')
    .option(
      '--until <n>',
      'replay n model steps, then continue live (--model, the agent model or CADRE_MODEL)',
    )
    .option('-m, --model <model>', 'the live model a fork (--until) continues with')
    .option('--timing [scale]', 'replay the recorded delays, scaled (default 1)')
    .option('-w, --workspace <dir>', 'folder live tools are confined to (default: current folder)')
    .option(
      '--approve <tool>',
      'approve a side-effecting tool after a fork (repeatable)',
      collect,
      [],
    )
    .option('--record <file>', 'record the replayed run (e.g. a fork) as a new trajectory')
    .option('--json', 'print {result, replay} as JSON')
    .option('-q, --quiet', 'no progress output')
    .action(async (file: string, options: ReplayCommandOptions) => {
      const { replayCommand } = await import('./commands/replay.js');
      exitCode = await replayCommand(file, options, io);
    });

  program
    .command('eval')
    .description('Score an agent on a dataset (JSONL rows, or a folder of trajectories)')
    .argument('<agent>', 'agent definition file')
    .requiredOption('-d, --dataset <path>', 'a .jsonl file or a folder of trajectories')
    .option(
      '-s, --scorer <name>',
      'exact, contains, regex, json_schema[=file], tool_called, llm_judge (repeatable)',
      collect,
      [],
    )
    .option('-m, --model <model>', 'model for the agent (a fresh client per row)')
    .option(
      '--judge-model <model>',
      'model for llm_judge (default: --model, then the judge definition)',
    )
    .option('--judge <file>', 'judge definition (default: examples/agents/judge.yaml)')
    .option('-c, --concurrency <n>', 'rows run at once', '4')
    .option('--repeat <k>', 'run every row k times', '1')
    .option('--retries <n>', 'retries of a row whose run fails', '1')
    .option('--min-score <x>', 'exit 1 when a scorer mean is below x (0..1)')
    .option('-w, --workspace <dir>', 'folder file tools are confined to (default: current folder)')
    .option(
      '--approve <tool>',
      "approve a side-effecting tool ('all' for every tool; repeatable)",
      collect,
      [],
    )
    .option('--json', 'print the full report as JSON')
    .action(async (agent: string, options: EvalCommandOptions) => {
      const { evalCommand } = await import('./commands/eval.js');
      exitCode = await evalCommand(agent, options, io);
    });

  program
    .command('mcp')
    .description("Serve the project's agents as MCP tools on stdio (approvals ask the client)")
    .option('-w, --workspace <dir>', 'folder file tools are confined to (default: current folder)')
    .option(
      '-m, --model <model>',
      "model for every agent (default: each agent's, then CADRE_MODEL)",
    )
    .option(
      '--approve <tool>',
      "approve a side-effecting tool without asking ('all' for every tool; repeatable)",
      collect,
      [],
    )
    .option('--policy <file>', 'a YAML policy file (rules, trust); default CADRE_POLICY')
    .action(async (options: McpCommandOptions) => {
      const { mcpCommand } = await loadCommand(() => import('./commands/mcp.js'), MCP);
      exitCode = await mcpCommand(options, io);
    });

  program
    .command('serve')
    .description('Serve the HTTP API (runs, streams, approvals, threads, audit) on 127.0.0.1')
    .option('-p, --port <port>', 'port to listen on (0: any free port)', '8787')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--db <url>',
      'postgres://… or a SQLite file (default: CADRE_DATABASE_URL, then .cadre/cadre.db)',
    )
    .option('-m, --model <model>', 'model for agents that name none')
    .option('--agents <dir>', 'another folder of agent definitions (repeatable)', collect, [])
    .option('--no-worker', 'serve HTTP only; `cadre worker` processes drive the runs')
    .option(
      '--workspace <dir>',
      "the folder agents' tools work in (default .cadre/workspace, never the server's own folder)",
    )
    .option('--policy <file>', 'a YAML policy file (rules, trust); default CADRE_POLICY')
    .option(
      '--drain-seconds <n>',
      'on SIGTERM, how long runs in flight may finish their step before being handed over',
      '20',
    )
    .addOption(logLevelOption())
    .addOption(logFormatOption())
    .action(async (options: ServeCommandOptions) => {
      const { serveCommand } = await loadCommand(() => import('./commands/serve.js'), SERVE);
      exitCode = await serveCommand(options, io);
    });

  program
    .command('worker')
    .description(
      'Drive queued runs from the shared database (no HTTP); run several beside `serve --no-worker`',
    )
    .option(
      '--db <url>',
      'postgres://… or a SQLite file (default: CADRE_DATABASE_URL, then .cadre/cadre.db)',
    )
    .option('-m, --model <model>', 'model for agents that name none')
    .option('--agents <dir>', 'another folder of agent definitions (repeatable)', collect, [])
    .option(
      '--workspace <dir>',
      "the folder agents' tools work in (default .cadre/workspace, never the server's own folder)",
    )
    .option('--policy <file>', 'a YAML policy file (rules, trust); default CADRE_POLICY')
    .option(
      '--drain-seconds <n>',
      'on SIGTERM, how long runs in flight may finish their step before being handed over',
      '20',
    )
    .addOption(logLevelOption())
    .addOption(logFormatOption())
    .action(async (options: WorkerCommandOptions) => {
      const { workerCommand } = await loadCommand(() => import('./commands/serve.js'), WORKER);
      exitCode = await workerCommand(options, io);
    });

  const token = program.command('token').description('API tokens for cadre serve');
  const tokenDb = [
    '--db <url>',
    'postgres://… or a SQLite file (default: CADRE_DATABASE_URL, then .cadre/cadre.db)',
  ] as const;
  token
    .command('create')
    .description('Create a token for a user (created on first use); printed once, stored hashed')
    .requiredOption('--user <name>', 'the user the token acts as')
    .option(...tokenDb)
    .option('--create-db', 'create the SQLite database if there is none yet (else: refused)')
    .action(async (options: { user: string; db?: string; createDb?: boolean }) => {
      const { tokenCreateCommand } = await loadCommand(() => import('./commands/token.js'), TOKEN);
      exitCode = await tokenCreateCommand(options, io);
    });
  token
    .command('list')
    .description('Every token (revoked ones too) by the first digits of its hash; never the token')
    .option('--user <name>', "only this user's tokens")
    .option('--json', 'print the tokens as JSON')
    .option(...tokenDb)
    .action(async (options: { user?: string; json?: boolean; db?: string }) => {
      const { tokenListCommand } = await loadCommand(() => import('./commands/token.js'), TOKEN);
      exitCode = await tokenListCommand(options, io);
    });
  token
    .command('revoke')
    .description('Revoke a token: its id, or at least 6 digits of the ID that `token list` shows')
    .argument('<id-or-prefix>', 'the token to revoke')
    .option(...tokenDb)
    .action(async (idOrPrefix: string, options: { db?: string }) => {
      const { tokenRevokeCommand } = await loadCommand(() => import('./commands/token.js'), TOKEN);
      exitCode = await tokenRevokeCommand(idOrPrefix, options, io);
    });

  grantsCommands(program, io, (code) => {
    exitCode = code;
  });

  const audit = program
    .command('audit')
    .description(
      'The audit log of the server, hash-chained under a key (CADRE_AUDIT_KEY or .cadre/audit.key)',
    );
  const auditDb = [
    '--db <url>',
    'postgres://… or a SQLite file (default: CADRE_DATABASE_URL, then .cadre/cadre.db)',
  ] as const;
  audit
    .command('verify')
    .description('Check the whole chain; exit 0 when intact, 1 with the first broken entry')
    .option(...auditDb)
    .option(
      '--anchor <file>',
      'an earlier `cadre audit export`: its head must still be in the chain',
    )
    .action(async (options: { db?: string; anchor?: string }) => {
      const { auditVerifyCommand } = await loadCommand(() => import('./commands/audit.js'), AUDIT);
      exitCode = await auditVerifyCommand(options, io);
    });
  audit
    .command('export')
    .description('Write the chain as NDJSON, its head last, to keep outside the database')
    .option(...auditDb)
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .action(async (options: { db?: string; out?: string }) => {
      const { auditExportCommand } = await loadCommand(() => import('./commands/audit.js'), AUDIT);
      exitCode = await auditExportCommand(options, io);
    });
  audit
    .command('seal')
    .description('Key a chain written before the audit key existed, from its next entry on')
    .option(...auditDb)
    .action(async (options: { db?: string }) => {
      const { auditSealCommand } = await loadCommand(() => import('./commands/audit.js'), AUDIT);
      exitCode = await auditSealCommand(options, io);
    });

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
    await program.parseAsync([...argv], { from: 'user' });
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
  return command.commands.map((sub) => ({
    name: sub.name(),
    flags: sub.options.flatMap((option) => (option.long ? [option.long] : [])),
    subcommands: completionCommands(sub),
  }));
}

const PROGRAM_HELP = `
Examples:
  $ cadre init                                   # a starter agent, tool and policy here
  $ cadre run helper "How many words are in README.md?"
  $ cadre chat
  $ cadre serve                                  # the API and the web page on 127.0.0.1:8787

Each command's --help lists the environment variables it reads.`;

/** `--log-level` for the long-running commands (serve, worker). */
const logLevelOption = (): Option =>
  new Option(
    '--log-level <level>',
    'fatal, error, warn, info, debug, trace or silent (default: CADRE_LOG_LEVEL, then info)',
  );

/** `--log-format` for the long-running commands (serve, worker). */
const logFormatOption = (): Option =>
  new Option(
    '--log-format <format>',
    'json or pretty (default: CADRE_LOG_FORMAT, then pretty on a terminal, else json)',
  );
