export {
  anyCommandMatches,
  checkCommand,
  parseCommandPattern,
  toCadrePattern,
  type CommandCheck,
  type CommandPattern,
  type PatternDialect,
} from './command-patterns.js';
export { runCommand, type CommandResult, type RunCommandOptions } from './run-command.js';
export {
  BASE_ENV_NAMES,
  buildShellEnvironment,
  parsePassEnv,
  PASS_ENV_VARIABLE,
} from './shell-environment.js';
export {
  createShellTool,
  shellTool,
  type ShellArgs,
  type ShellResult,
  type ShellToolOptions,
} from './shell-tool.js';
