import { optionalImport, type OptionalPackages } from '../util/optional-import.js';

/**
 * What a command needs beyond `npm install cadre` (optional peers), and a
 * loader for those packages. They load before the command, so a missing
 * one is named (exit 2) before anything starts. The database driver is
 * left out of the loader: --db picks libsql or pg, and the store names
 * the one it misses itself.
 */
export interface CommandPackages extends OptionalPackages {
  preload: () => Promise<unknown>;
}

const STORE = ['kysely', 'libsql'];

export const SERVE: CommandPackages = {
  needs: 'cadre serve needs',
  packages: ['fastify', '@fastify/static', '@fastify/rate-limit', 'pino', ...STORE],
  or: ['pg'],
  preload: () =>
    Promise.all([
      import('fastify'),
      import('@fastify/static'),
      import('@fastify/rate-limit'),
      import('pino'),
      import('kysely'),
    ]),
};

export const WORKER: CommandPackages = {
  needs: 'cadre worker needs',
  packages: ['pino', ...STORE],
  or: ['pg'],
  preload: () => Promise.all([import('pino'), import('kysely')]),
};

export const TOKEN: CommandPackages = {
  needs: 'cadre token needs',
  packages: STORE,
  or: ['pg'],
  preload: () => import('kysely'),
};

export const AUDIT: CommandPackages = { ...TOKEN, needs: 'cadre audit needs' };

export const MCP: CommandPackages = {
  needs: 'cadre mcp needs',
  packages: ['@modelcontextprotocol/sdk'],
  preload: () => import('@modelcontextprotocol/sdk/server/index.js'),
};

/** Loads a command's module once the packages it needs have loaded. */
export function loadCommand<T>(load: () => Promise<T>, needs: CommandPackages): Promise<T> {
  return optionalImport(async () => {
    await needs.preload();
    return load();
  }, needs);
}
