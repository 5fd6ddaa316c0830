import type { Command } from 'commander';
import { jsonOption } from '../options/output-options.js';
import { trustProjectOption } from '../options/agent-options.js';
import type { ToolsCommandOptions } from '../commands/tools.js';
import type { TrustCommandOptions } from '../commands/trust.js';
import type { ValidateCommandOptions } from '../commands/validate.js';
import type { CommandContext } from './command-context.js';

/** `cadre init [dir]` */
export function registerInit(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('init')
    .description(
      'Start a project: agents/helper.yaml, tools/word-count.tool.ts, policy.yaml and .cadre/ in .gitignore (never overwrites)',
    )
    .argument('[dir]', 'folder to set up (default: the current folder)')
    .action(async (dir: string | undefined) => {
      const { initCommand } = await import('../commands/init.js');
      setExit(await initCommand(dir, io));
    });
}

/** `cadre validate [paths...]` */
export function registerValidate(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('validate')
    .description('Check agent definitions; exit 0 when all are valid, 1 otherwise')
    .argument('[paths...]', 'files or folders')
    .option(
      '--strict',
      "also require the spec's required fields (inputConfig, outputConfig, query, systemPrompt)",
    )
    .addOption(trustProjectOption())
    .action(async (paths: string[], options: ValidateCommandOptions) => {
      const { validateCommand } = await import('../commands/validate.js');
      setExit(await validateCommand(paths, options, io));
    });
}

/** `cadre schema` */
export function registerSchema(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('schema')
    .description('Print the JSON Schema of the agent definition format')
    .action(async () => {
      const { schemaCommand } = await import('../commands/schema.js');
      setExit(schemaCommand(io));
    });
}

/** `cadre agents [dir]` */
export function registerAgents(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('agents')
    .description('List the agent definitions found in ./agents and .cadre/agents (or in a folder)')
    .argument('[dir]', 'folder to list')
    .action(async (dir: string | undefined) => {
      const { agentsCommand } = await import('../commands/agents.js');
      setExit(await agentsCommand(dir, io));
    });
}

/** `cadre tools` */
export function registerTools(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('tools')
    .description(
      'List the tools agents can name: built-ins and code tools in tools/, .cadre/tools and ~/.cadre/tools',
    )
    .addOption(jsonOption('print the tools as JSON'))
    .addOption(trustProjectOption())
    .action(async (options: ToolsCommandOptions) => {
      const { toolsCommand } = await import('../commands/tools.js');
      setExit(await toolsCommand(options, io));
    });
}

/** `cadre trust [paths...]` */
export function registerTrust(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('trust')
    .description(
      "Trust this project's code tools, agent modules, MCP commands and settings (by content hash, recorded outside the project)",
    )
    .argument('[paths...]', 'files to trust (default: everything the project loads)')
    .option('--list', 'show what the project loads: trusted, untrusted or changed')
    .option('--revoke', 'forget trust in the named files (default: all of the project)')
    .action(async (paths: string[], options: TrustCommandOptions) => {
      const { trustCommand } = await import('../commands/trust.js');
      setExit(await trustCommand(paths, options, io));
    });
}
