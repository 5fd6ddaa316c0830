import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { ToolExecutionError } from '../../errors/index.js';
import {
  type AllowList,
  isAllowed,
  isBlockedAddress,
  normalizeHost,
  parseAddress,
} from './address-rules.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Turns a host name into addresses; tests pass their own to stage DNS answers. */
export type Resolver = (
  hostname: string,
  signal: AbortSignal,
) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * A destination web_fetch will not go to. `reason` reads on its own
 * (`10.0.0.5 is a private address (…)`) so a redirect can say which hop it was.
 */
export class FetchRefusedError extends ToolExecutionError {
  constructor(
    readonly reason: string,
    context = 'Refused',
  ) {
    super(`${context}: ${reason}`);
  }
}

/** `10.0.0.5 is a private address (set CADRE_FETCH_ALLOW to allow it)` */
export function refusalReason(host: string, ip: string, range: string): string {
  const name = normalizeHost(host);
  const who = name === normalizeHost(ip) ? ip : `${name} (${ip})`;
  const article = /^[aeiou]/i.test(range) ? 'an' : 'a';
  return `${who} is ${article} ${range} address (set CADRE_FETCH_ALLOW to allow it)`;
}

/** Throws FetchRefusedError when `ip` is blocked and the allow-list does not cover it. */
export function checkAddress(host: string, ip: string, allow: AllowList): void {
  const verdict = isBlockedAddress(ip);
  if (verdict.blocked && !isAllowed(host, ip, allow))
    throw new FetchRefusedError(refusalReason(host, ip, verdict.range));
}

/**
 * Resolves `hostname` and vets every answer: one blocked answer refuses the
 * name, so a resolver cannot slip an internal address in beside a public one.
 * IP literals (in any spelling) are vetted as they are, without DNS.
 */
async function vetHost(
  hostname: string,
  allow: AllowList,
  resolve: Resolver,
  signal: AbortSignal,
): Promise<ResolvedAddress[]> {
  const literal = parseAddress(hostname);
  const answers: readonly ResolvedAddress[] = literal
    ? [{ address: literal.toString(), family: literal.kind() === 'ipv4' ? 4 : 6 }]
    : await resolve(hostname, signal);
  if (answers.length === 0) throw new ToolExecutionError(`Could not resolve ${hostname}.`);
  for (const { address } of answers) checkAddress(hostname, address, allow);
  return [...answers];
}

/**
 * A `lookup` for http.request: the socket connects only to addresses this
 * function vetted, so the address checked is the address connected (a second
 * DNS answer cannot rebind the name between check and connect).
 */
export function guardedLookup(
  allow: AllowList,
  resolve: Resolver,
  signal: AbortSignal,
): LookupFunction {
  return (hostname, options: LookupOptions, callback) => {
    vetHost(hostname, allow, resolve, signal).then(
      (answers) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = family === undefined ? answers : answers.filter((a) => a.family === family);
        const [first] = usable;
        if (first === undefined) {
          callback(lookupFailure(hostname), '', 0);
        } else if (options.all === true) {
          callback(null, usable satisfies LookupAddress[]);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: unknown) => callback(asErrno(error, hostname), '', 0),
    );
  };
}

function lookupFailure(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`Could not resolve ${hostname}.`), { code: 'ENOTFOUND' });
}

const asErrno = (error: unknown, hostname: string): NodeJS.ErrnoException =>
  error instanceof Error ? error : lookupFailure(hostname);
