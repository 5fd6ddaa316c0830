/**
 * One file fetched into `<dest>.part`, resumed from what that part already
 * holds with an HTTP Range request, and moved to `dest` only once its size
 * is the size the server announced. A server that ignores Range (200) sends
 * the whole file again, which overwrites the part.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { ConfigError } from '../errors/index.js';

export interface DownloadProgress {
  downloadedBytes: number;
  totalBytes: number;
}

export interface ResumableDownload {
  url: string;
  dest: string;
  headers?: Record<string, string>;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

/** The part file a cut download leaves, for the next pull to resume. */
const partFileOf = (dest: string): string => `${dest}.part`;

export async function downloadResumable(options: ResumableDownload): Promise<number> {
  const part = partFileOf(options.dest);
  const have = (await stat(part).catch(() => undefined))?.size ?? 0;
  const response = await fetch(options.url, {
    headers: { ...options.headers, range: `bytes=${have}-` },
    redirect: 'follow',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (response.status === 416 && have > 0) {
    // Nothing after what the part holds: it may be whole, or longer than the file now is.
    await response.body?.cancel();
    const total = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1]);
    if (total === have) return finish(part, options.dest, total);
    await rm(part, { force: true });
    return downloadResumable(options);
  }
  if (!response.ok || !response.body)
    throw new ConfigError(`The download of ${options.url} failed: HTTP ${response.status}.`);
  const resumed = response.status === 206 && rangeStart(response) === have;
  const start = resumed ? have : 0;
  const total = totalSize(response, start);
  let downloaded = start;
  options.onProgress?.({ downloadedBytes: downloaded, totalBytes: total });
  // Written chunk by chunk and closed cleanly even when the connection breaks:
  // every byte that arrived is on disk for the next pull to resume after.
  // A roomy buffer: the loop keeps reading while the disk catches up, so little is
  // left unread in the response when a connection breaks.
  const out = createWriteStream(part, { flags: resumed ? 'a' : 'w', highWaterMark: 1 << 20 });
  let failure: unknown;
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      if (!out.write(chunk)) await once(out, 'drain');
      downloaded += chunk.byteLength;
      options.onProgress?.({ downloadedBytes: downloaded, totalBytes: total });
    }
  } catch (error) {
    failure = error;
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  if (failure !== undefined) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new ConfigError(
      `The download was cut at ${downloaded} of ${total} bytes: run the pull again to resume it.`,
      { cause: failure },
    );
  }
  return finish(part, options.dest, total);
}

async function finish(part: string, dest: string, total: number): Promise<number> {
  const size = (await stat(part)).size;
  if (total > 0 && size !== total)
    throw new ConfigError(
      `The download is ${size} bytes, the server said ${total}: run the pull again to resume it.`,
    );
  await rename(part, dest);
  return size;
}

/** `bytes 100-199/200` → 100. */
const rangeStart = (response: Response): number | undefined => {
  const match = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '');
  return match ? Number(match[1]) : undefined;
};

/** The whole file's size: after the slash of Content-Range, else what is left plus what we have. */
function totalSize(response: Response, start: number): number {
  const whole = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
  if (whole) return Number(whole);
  const length = Number(response.headers.get('content-length'));
  return Number.isFinite(length) && length > 0 ? start + length : 0;
}
