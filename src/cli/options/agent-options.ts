import { Option } from 'commander';
import { collect } from './collect.js';

/**
 * The flags every command that runs agents shares. Each is written once here
 * with its usual help text; a command whose flag means something narrower
 * (`replay --model`: the model a fork continues with) passes its own text.
 * Beside each factory, the field it puts in the command's options object.
 */

/** `-m, --model <model>` */
export interface ModelFlag {
  model?: string;
}
export const modelOption = (
  description = 'model to use, e.g. gemini-2.5-flash, openai:gpt-4.1, ollama:qwen3',
): Option => new Option('-m, --model <model>', description);

/** `--approve <tool>`, repeatable */
export interface ApproveFlag {
  /** Tools approved without asking ('all' for every tool). */
  approve: string[];
}
export const approveOption = (
  description = "approve a side-effecting tool without asking ('all' for every tool; repeatable)",
): Option => new Option('--approve <tool>', description).default([]).argParser(collect);

/** `--policy <file>` */
export interface PolicyFlag {
  /** A YAML policy file (rules, trust); else CADRE_POLICY. */
  policy?: string;
}
export const policyOption = (): Option =>
  new Option('--policy <file>', 'a YAML policy file (rules, trust); default CADRE_POLICY');

/** `-w, --workspace <dir>` (the server's own flag is in server-options.ts) */
export interface WorkspaceFlag {
  workspace?: string;
}
export const workspaceOption = (
  description = 'folder file tools are confined to (default: current folder)',
): Option => new Option('-w, --workspace <dir>', description);

/** `-i, --input <key=value>`, repeatable */
export interface InputFlag {
  input: string[];
}
export const inputOption = (): Option =>
  new Option('-i, --input <key=value>', 'an input value (repeatable)')
    .default([])
    .argParser(collect);

/** `--trust-project` */
export interface TrustProjectFlag {
  /** Load the project's untrusted code and configuration for this run only (records nothing). */
  trustProject?: boolean;
}
export const trustProjectOption = (): Option =>
  new Option(
    '--trust-project',
    "load this project's code tools, agent modules, MCP commands and settings for this run without trusting them (records nothing)",
  );
