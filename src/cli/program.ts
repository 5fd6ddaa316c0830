import { Command, CommanderError } from 'commander';
import type { CliIO } from './cli-io.js';
import { EXIT } from './cli-io.js';

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
    .command('run')
    .description('Run an agent definition (YAML, JSON, Markdown or TS module)')
    .argument('<file>', 'agent definition file')
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
    .action(
      async (
        file: string,
        prompt: string[],
        options: {
          input: string[];
          model?: string;
          workspace?: string;
          json?: boolean;
          approve: string[];
          quiet?: boolean;
        },
      ) => {
        const { runCommand } = await import('./commands/run.js');
        exitCode = await runCommand(file, prompt, options, io);
      },
    );

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

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.failed;
    }
    throw error;
  }
  return exitCode;
}
