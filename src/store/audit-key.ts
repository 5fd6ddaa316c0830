import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors/cadre-error.js';
import { MIN_AUDIT_KEY_BYTES } from './audit-chain.js';

/** Next to the default SQLite database, outside it: a stolen database file alone cannot re-MAC the chain. */
export const DEFAULT_AUDIT_KEY_PATH = path.join('.cadre', 'audit.key');

export interface LoadAuditKeyOptions {
  env: NodeJS.ProcessEnv;
  /** A relative key file path resolves against it. */
  cwd: string;
  /** The key file; default CADRE_AUDIT_KEY_FILE, then `.cadre/audit.key`. */
  file?: string;
  /** Create the file when missing (default true). Readers pass false: a new key verifies nothing. */
  create?: boolean;
}

/**
 * The audit chain's HMAC key: CADRE_AUDIT_KEY (hex or base64, at least 32
 * bytes) or else the key file, created on first use with mode 0600. Returns
 * undefined only when `create` is false and there is no key. Errors never
 * quote the key.
 */
export async function loadAuditKey(options: LoadAuditKeyOptions): Promise<Buffer | undefined> {
  const fromEnv = options.env.CADRE_AUDIT_KEY?.trim();
  if (fromEnv) return decodeKey(fromEnv, 'CADRE_AUDIT_KEY');
  const file = path.resolve(
    options.cwd,
    options.file ?? (options.env.CADRE_AUDIT_KEY_FILE?.trim() || DEFAULT_AUDIT_KEY_PATH),
  );
  const existing = await readKeyFile(file);
  if (existing !== undefined || options.create === false) return existing;
  await createKeyFile(file);
  // Read back what is there: another process may have created the file first.
  return readKeyFile(file);
}

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`Cannot read the audit key file ${file}.`, { cause: error });
  }
  // As ssh does with private keys: a key others can read is no secret.
  if (process.platform !== 'win32' && ((await stat(file)).mode & 0o077) !== 0)
    throw new ConfigError(`The audit key file ${file} is readable by others: chmod 600 it.`);
  return decodeKey(text.trim(), file);
}

/** Written aside, then linked into place: a reader never sees a half-written key, and link never overwrites one. */
async function createKeyFile(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new ConfigError(`Cannot create the audit key file ${file}.`, { cause: error });
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

function decodeKey(text: string, source: string): Buffer {
  const key = /^(?:[0-9a-f]{2})+$/i.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(text)
      ? Buffer.from(text, 'base64')
      : undefined;
  if (key === undefined || key.length < MIN_AUDIT_KEY_BYTES)
    throw new ConfigError(
      `The audit key in ${source} must be hex or base64 of at least ${MIN_AUDIT_KEY_BYTES} bytes.`,
    );
  return key;
}
