import type { ModelClient } from '../../model/types.js';
import type { Store } from '../../store/types.js';
import type { Clock } from '../../util/clock.js';
import type { RunWorkerOptions } from '../worker/worker-types.js';
import type { WorkspacePlan } from './run-workspace.js';

export interface RunServiceOptions {
  store: Store;
  /** The project folder: agents, policy, MCP servers and prices are read from here. */
  cwd: string;
  /**
   * Where the agents' tools work: one folder for every run (default: `cwd`), or
   * (`cadre serve`) a folder of each user's own, or each thread's, under a base.
   */
  workspace?: string | WorkspacePlan;
  /** The server's own files that no tool may reach, besides each workspace's `.cadre/`. */
  protectedPaths?: readonly string[];
  env: NodeJS.ProcessEnv;
  /** `cadre serve --model`: used when an agent names no model. */
  model?: string;
  /** A client to use for every agent (tests with scripted models). */
  modelClient?: ModelClient;
  /** Agent folders besides ./agents and .cadre/agents. */
  agentDirs?: string[];
  /** A YAML policy file (rules, trust); else CADRE_POLICY. */
  policyFile?: string;
  /**
   * This process's run worker (default on). Off: runs are only queued and
   * followed here, and `cadre worker` processes on the same database drive them.
   */
  worker?: boolean | Partial<RunWorkerOptions>;
  /** How often attached requests look at a run when no notification arrives (default 250 ms). */
  pollMs?: number;
  /**
   * What the worker's queue poll, backoff and heartbeat and the attached
   * requests' polls wait on (default the real clock; tests step a ManualClock).
   */
  clock?: Clock;
  /** Reports failures outside any request (a worker's store errors). */
  onError?: (error: unknown, runId: string) => void;
  /** Reports what start-up left out (a code tool that failed to load), each naming the file. */
  onWarning?: (message: string) => void;
  /** No agent can reach its model (no key for its provider): said once, at start. */
  onNoModel?: (message: string) => void;
  /**
   * Workspace trust (`cadre serve` and `cadre worker` always set it): the
   * project's code tools, agent modules, MCP files and commands, settings,
   * policy and price files load only when trusted (`cadre trust`), or all of
   * them with `oneRun` (`--trust-project`), and never from inside
   * `workspace`, where the agents can write. Absent: everything loads (code
   * that embeds the server vouches for its own folder).
   */
  trust?: { oneRun?: boolean };
}
