import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { CancelledError, ToolExecutionError } from '../../errors/index.js';
import { withTimeoutAndCancellation } from '../../util/time-budget.js';
import { throwIfAborted } from '../builtin/abort.js';
import type { AllowList } from './address-rules.js';
import { parseContentType, sniffHtmlCharset } from './content-type.js';
import {
  FetchRefusedError,
  checkAddress,
  guardedLookup,
  type Resolver,
  systemResolver,
} from './guarded-lookup.js';
import { ACCEPT_ENCODING, type BodyRead, readBody } from './read-body.js';
import { FETCH_DEFAULTS } from './web-limits.js';

export interface FetchPageOptions {
  allow: AllowList;
  /** Most decoded body bytes kept; the rest is cut and `truncated` set. */
  maxBytes: number;
  /** Budget for the whole fetch, redirects included. */
  timeoutMs: number;
  maxRedirects: number;
  signal: AbortSignal;
  userAgent?: string;
  /** Extra request headers, sent to the first URL's origin only (a redirect elsewhere drops them). */
  headers?: Readonly<Record<string, string>>;
  /** DNS for host names; the system resolver unless a test stages answers. */
  resolve?: Resolver;
  /** Whether to read a body of this MIME type; when false the body is left unread. */
  wantsBody?: (mimeType: string) => boolean;
}

export interface FetchedPage {
  url: string;
  /** Where the last redirect led (equals `url` when there was none). */
  finalUrl: string;
  status: number;
  /** The `content-type` header as sent; empty when absent. */
  contentType: string;
  /** Lower-case type/subtype from `contentType`. */
  mimeType: string;
  /** From the header or, for HTML, a `<meta charset>`; undefined means UTF-8. */
  charset?: string;
  body: Buffer;
  /** True when the body was cut at `maxBytes`. */
  truncated: boolean;
  /** False when `wantsBody` declined the type and nothing was read. */
  bodyRead: boolean;
}

export { FETCH_DEFAULTS };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT =
  'text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5';

/**
 * One guarded GET: http(s) only, every hop's address vetted against the
 * blocked ranges (the vetted address is the one connected), redirects
 * followed by hand, the body decoded and capped, one deadline for it all.
 * Failures are ToolExecutionError with a message fit for the model;
 * cancellation is CancelledError.
 */
export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchedPage> {
  throwIfAborted(options.signal);
  const start = checkTarget(url, 0);
  const seconds = Math.round(options.timeoutMs / 100) / 10;
  try {
    return await withTimeoutAndCancellation(
      (signal) => follow(start, options, signal),
      options.timeoutMs,
      options.signal,
      () => new ToolExecutionError(`Timed out after ${seconds} s fetching ${start.href}.`),
    );
  } catch (error) {
    if (options.signal.aborted) throw new CancelledError('The tool call was cancelled.');
    throw error;
  }
}

async function follow(
  start: URL,
  options: FetchPageOptions,
  signal: AbortSignal,
): Promise<FetchedPage> {
  let target = start;
  for (let hop = 0; ; hop += 1) {
    // A listener added to an already aborted signal never fires, so look before each hop.
    signal.throwIfAborted();
    const headers = requestHeaders(options, target.origin === start.origin);
    const response = await open(target, hop, headers, options, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location !== undefined) {
      response.destroy();
      if (hop >= options.maxRedirects) {
        throw new ToolExecutionError(
          `Stopped after ${options.maxRedirects} redirects; ${target.href} redirects again.`,
        );
      }
      target = checkTarget(resolveLocation(location, target, hop + 1), hop + 1);
      continue;
    }
    return readPage(start, target, response, options, signal);
  }
}

async function readPage(
  start: URL,
  target: URL,
  response: IncomingMessage,
  options: FetchPageOptions,
  signal: AbortSignal,
): Promise<FetchedPage> {
  const contentType = response.headers['content-type'] ?? '';
  const { mimeType, charset } = parseContentType(contentType);
  const page = {
    url: start.href,
    finalUrl: target.href,
    status: response.statusCode ?? 0,
    contentType,
    mimeType,
  };
  if (options.wantsBody?.(mimeType) === false) {
    response.destroy();
    return { ...page, body: Buffer.alloc(0), truncated: false, bodyRead: false };
  }
  let read: BodyRead;
  try {
    read = await readBody(response, response.headers['content-encoding'], options.maxBytes, signal);
  } finally {
    response.destroy();
  }
  const { body, truncated } = read;
  const sniffed = charset ?? (mimeType.includes('html') ? sniffHtmlCharset(body) : undefined);
  return { ...page, ...(sniffed ? { charset: sniffed } : {}), body, truncated, bodyRead: true };
}

function requestHeaders(options: FetchPageOptions, sameOrigin: boolean): OutgoingHttpHeaders {
  return {
    accept: ACCEPT,
    'accept-encoding': ACCEPT_ENCODING,
    'user-agent': options.userAgent ?? FETCH_DEFAULTS.userAgent,
    ...(sameOrigin ? options.headers : {}),
  };
}

/** Where hop `hop` is refused, so a redirect's refusal says which hop and where. */
const hopContext = (hop: number, url: string): string =>
  hop === 0 ? 'Refused' : `Refused redirect ${hop} to ${url}`;

function checkTarget(raw: string, hop: number): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolExecutionError(`${hopContext(hop, raw)}: not a valid absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchRefusedError(
      `only http and https URLs are fetched, not ${url.protocol}`,
      hopContext(hop, url.href),
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new FetchRefusedError(
      'URLs carrying a user name or password are not fetched',
      hopContext(hop, `${url.protocol}//${url.host}${url.pathname}`),
    );
  }
  url.hash = '';
  return url;
}

function resolveLocation(location: string, base: URL, hop: number): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new ToolExecutionError(`Redirect ${hop} from ${base.href} has an invalid Location.`);
  }
}

/** Sends the GET for one hop and resolves with the response head. */
function open(
  url: URL,
  hop: number,
  headers: OutgoingHttpHeaders,
  options: FetchPageOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const { allow } = options;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const inContext = (error: unknown): unknown =>
    error instanceof FetchRefusedError && hop > 0
      ? new FetchRefusedError(error.reason, hopContext(hop, url.href))
      : error;
  return new Promise<IncomingMessage>((resolve, reject) => {
    try {
      // Node connects to an IP literal without calling `lookup`, so it is vetted here.
      if (isIP(hostname) !== 0) checkAddress(hostname, hostname, allow);
    } catch (error) {
      reject(inContext(error));
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'GET',
      headers,
      agent: false, // a fresh connection per hop, so each hop's address is looked up and vetted
      lookup: guardedLookup(allow, options.resolve ?? systemResolver, signal),
    });
    const onAbort = (): void => {
      request.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('socket', (socket: Socket) => checkConnected(socket, hostname, allow, request));
    request.once('response', (response) => {
      signal.removeEventListener('abort', onAbort);
      resolve(response);
    });
    request.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(inContext(networkError(error, url)));
    });
    request.end();
  });
}

/** A second check on the connected peer, in case an address ever reaches the socket unvetted. */
function checkConnected(
  socket: Socket,
  hostname: string,
  allow: AllowList,
  request: http.ClientRequest,
): void {
  const check = (): void => {
    const remote = socket.remoteAddress;
    if (remote === undefined) return;
    try {
      checkAddress(hostname, remote, allow);
    } catch (error) {
      request.destroy(error as Error);
    }
  };
  if (socket.connecting) socket.once('connect', check);
  else check();
}

/** A transport failure as a short message naming the host and the error code, never a stack. */
function networkError(error: Error, url: URL): ToolExecutionError {
  if (error instanceof ToolExecutionError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const host = url.host;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return new ToolExecutionError(`Could not resolve ${url.hostname}.`);
    case 'ECONNREFUSED':
      return new ToolExecutionError(`${host} refused the connection.`);
    case 'ECONNRESET':
    case 'EPIPE':
      return new ToolExecutionError(`${host} closed the connection.`);
    case 'ETIMEDOUT':
      return new ToolExecutionError(`Connecting to ${host} timed out.`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new ToolExecutionError(`${host} is unreachable.`);
  }
  if (/CERT|SSL|TLS|SELF_SIGNED/.test(code)) {
    return new ToolExecutionError(`The TLS certificate of ${host} was not accepted (${code}).`);
  }
  return new ToolExecutionError(`Fetching ${url.href} failed${code ? ` (${code})` : ''}.`, {
    cause: error,
  });
}
