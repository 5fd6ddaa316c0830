import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isInsideWorkspace } from '../tools/builtin/workspace-path.js';

/** Lines kept, as readline's Up arrow walks them. */
const KEEP = 500;

/** Lines typed at `cadre chat`, newest first (readline's order), saved as they are typed. */
export interface ChatHistory {
  /** Mutable, newest first: handed to readline, which updates it. */
  lines: string[];
  /** Saves a line typed; best effort, a chat never fails for its history. */
  add(line: string): Promise<void>;
}

/**
 * `$XDG_STATE_HOME/cadre/chat-history`, else `~/.local/state/cadre/chat-history`.
 * Never inside the project (`cwd`): what is typed stays the person's, out
 * of reach of a commit. Undefined: kept for this session only.
 */
export function chatHistoryFile(env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const state = env.XDG_STATE_HOME?.trim();
  const home = env.HOME?.trim();
  const folder =
    state && path.isAbsolute(state)
      ? path.join(state, 'cadre')
      : home && path.isAbsolute(home)
        ? path.join(home, '.local', 'state', 'cadre')
        : undefined;
  if (!folder || isInsideWorkspace(path.resolve(cwd), path.resolve(folder))) return undefined;
  return path.join(folder, 'chat-history');
}

export async function loadChatHistory(file: string | undefined): Promise<ChatHistory> {
  const saved = file ? await readFile(file, 'utf8').catch(() => '') : '';
  const all = saved.split('\n').filter((line) => line.trim() !== '');
  const kept = all.slice(-KEEP);
  // Trimmed when it has grown to twice what is kept.
  if (file && all.length > 2 * KEEP)
    await writeFile(file, `${kept.join('\n')}\n`, { mode: 0o600 }).catch(() => undefined);
  return {
    lines: kept.reverse(),
    async add(line) {
      if (!file || line.trim() === '') return;
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 }).catch(() => undefined);
      await appendFile(file, `${line}\n`, { mode: 0o600 }).catch(() => undefined);
    },
  };
}
