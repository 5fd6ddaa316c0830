import type { Command } from 'commander';
import { loadCommand, MCP } from '../command-packages.js';
import type { ChatCommandOptions } from '../commands/chat.js';
import type { McpCommandOptions } from '../commands/mcp.js';
import type { RunCommandOptions } from '../commands/run.js';
import {
  approveOption,
  inputOption,
  modelOption,
  policyOption,
  trustProjectOption,
  workspaceOption,
} from '../options/agent-options.js';
import { jsonOption, quietOption, recordOption } from '../options/output-options.js';
import type { CommandContext } from './command-context.js';
import { PROMPT_COMMAND } from '../prompt-flag.js';

/** `cadre run <agent> [prompt...]`, and `cadre -p "prompt"` (the hidden `prompt` command). */
export function registerRun(program: Command, { io, setExit }: CommandContext): void {
  const run = program
    .command('run')
    .description(
      'Run an agent: a definition file (YAML, JSON, Markdown or TS module) or a discovered agent by name',
    )
    .argument('<agent>', 'an agent definition file, or the name of an agent `cadre agents` lists')
    .argument('[prompt...]', "the user's message (none given: read from stdin when it is piped)");
  withRunOptions(run).action(async (file: string, prompt: string[], options: RunCommandOptions) => {
    const { runCommand } = await import('../commands/run.js');
    setExit(await runCommand(file, prompt, options, io));
  });
  const shorthand = program
    .command(PROMPT_COMMAND, { hidden: true })
    .description('Run the default agent once: cadre -p "prompt" [run options]')
    .argument('[prompt...]', "the user's message");
  withRunOptions(shorthand).action(async (prompt: string[], options: RunCommandOptions) => {
    const { runCommand } = await import('../commands/run.js');
    setExit(await runCommand(undefined, prompt, options, io));
  });
}

function withRunOptions(command: Command): Command {
  return command
    .addOption(inputOption())
    .addOption(modelOption())
    .addOption(workspaceOption())
    .addOption(approveOption())
    .addOption(jsonOption('print only the result object, as JSON'))
    .addOption(quietOption())
    .addOption(recordOption('record the run as a trajectory (JSON) for replay and evals'))
    .addOption(policyOption())
    .addOption(trustProjectOption());
}

/** `cadre chat [agent]` */
export function registerChat(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('chat')
    .description(
      'Talk to an agent in the terminal (default: ACTIVE_AGENT_PATH, else the built-in assistant)',
    )
    .argument('[agent]', 'a discovered agent name or a definition file')
    .addOption(modelOption('model to use'))
    .addOption(approveOption())
    .addOption(policyOption())
    .addOption(trustProjectOption())
    .action(async (agent: string | undefined, options: ChatCommandOptions) => {
      const { chatCommand } = await import('../commands/chat.js');
      setExit(await chatCommand(agent, options, io));
    });
}

/** `cadre mcp`: the project's agents as MCP tools on stdio. */
export function registerMcp(program: Command, { io, setExit }: CommandContext): void {
  program
    .command('mcp')
    .description("Serve the project's agents as MCP tools on stdio (approvals ask the client)")
    .addOption(workspaceOption())
    .addOption(modelOption("model for every agent (default: each agent's, then CADRE_MODEL)"))
    .addOption(approveOption())
    .addOption(policyOption())
    .addOption(trustProjectOption())
    .action(async (options: McpCommandOptions) => {
      const { mcpCommand } = await loadCommand(() => import('../commands/mcp.js'), MCP);
      setExit(await mcpCommand(options, io));
    });
}
