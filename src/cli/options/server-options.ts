import { Option } from 'commander';
import { collect } from './collect.js';

/** The flags of the commands that open the shared database or run the server. */

/** `--db <url>` */
export interface DbFlag {
  /** `--db URL`; else CADRE_DATABASE_URL; else `.cadre/cadre.db` under the working folder. */
  db?: string;
}
export const dbOption = (): Option =>
  new Option(
    '--db <url>',
    'postgres://… or a SQLite file (default: CADRE_DATABASE_URL, then .cadre/cadre.db)',
  );

/** `--agents <dir>`, repeatable */
export interface AgentsFlag {
  /** Agent folders besides ./agents and .cadre/agents. */
  agents: string[];
}
export const agentsOption = (): Option =>
  new Option('--agents <dir>', 'another folder of agent definitions (repeatable)')
    .default([])
    .argParser(collect);

/** `--workspace <dir>` and `--workspace-scope` of serve and worker. */
export interface ServerWorkspaceFlag {
  /** The folder the users' workspaces are made in; default `.cadre/workspaces`. */
  workspace?: string;
  /** One workspace per user (default), or per user and thread. */
  workspaceScope: 'user' | 'thread';
}
export const serverWorkspaceOption = (): Option =>
  new Option(
    '--workspace <dir>',
    "the folder each user's workspace is made in (default .cadre/workspaces; not the server's own folder)",
  );
export const workspaceScopeOption = (): Option =>
  new Option('--workspace-scope <scope>', 'one workspace per user, or per user and thread')
    .choices(['user', 'thread'])
    .default('user');

/** `--drain-seconds <n>` */
export interface DrainFlag {
  /** How long SIGTERM lets runs in flight finish their step before handing them over. */
  drainSeconds: string;
}
export const drainSecondsOption = (): Option =>
  new Option(
    '--drain-seconds <n>',
    'on SIGTERM, how long runs in flight may finish their step before being handed over',
  ).default('20');

/** `--log-level <level>` and `--log-format <format>` */
export interface LogFlags {
  /** Else CADRE_LOG_LEVEL, else info. */
  logLevel?: string;
  /** `json` or `pretty`; else CADRE_LOG_FORMAT, else pretty on a terminal. */
  logFormat?: string;
}
export const logLevelOption = (): Option =>
  new Option(
    '--log-level <level>',
    'fatal, error, warn, info, debug, trace or silent (default: CADRE_LOG_LEVEL, then info)',
  );
export const logFormatOption = (): Option =>
  new Option(
    '--log-format <format>',
    'json or pretty (default: CADRE_LOG_FORMAT, then pretty on a terminal, else json)',
  );
