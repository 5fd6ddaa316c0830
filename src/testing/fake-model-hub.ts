/**
 * A loopback stand-in for the Hugging Face hub, enough for node-llama-cpp's
 * `hf:<user>/<repo>:<quant>` URIs (point HF_ENDPOINT at `url`): the manifest
 * naming the GGUF file, and the file itself with HEAD and byte ranges. It can
 * stall the first download after some bytes, or cut its connection, to show
 * a pull resumes; or ignore Range, to show a pull falls back to the whole file.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeHubOptions {
  user: string;
  repo: string;
  /** The file the manifest names, e.g. `tiny.Q8_0.gguf`. */
  file: string;
  bytes: Uint8Array;
  /** Send this many bytes of the first ranged GET of the file, then nothing more (a dead connection). */
  stallFirstDownloadAt?: number;
  /** Send this many bytes of the first GET of the file that asks for a range, then close the connection. */
  cutFirstDownloadAt?: number;
  /** Answer every GET with the whole file (200), whatever its Range header. */
  ignoreRange?: boolean;
}

export interface FakeHub {
  url: string;
  /** Each file GET's Range header ('' when it had none). */
  ranges: string[];
  close(): Promise<void>;
}

export async function startFakeHub(options: FakeHubOptions): Promise<FakeHub> {
  const ranges: string[] = [];
  let stall = options.stallFirstDownloadAt;
  let cut = options.cutFirstDownloadAt;
  const filePath = `/${options.user}/${options.repo}/resolve/main/${options.file}`;
  const manifestPrefix = `/v2/${options.user}/${options.repo}/manifests/`;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith(manifestPrefix)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ ggufFile: { rfilename: options.file, size: options.bytes.byteLength } }),
      );
      return;
    }
    if (url.pathname !== filePath) {
      res.writeHead(404).end();
      return;
    }
    const total = options.bytes.byteLength;
    const headers = {
      'accept-ranges': 'bytes',
      'content-type': 'application/octet-stream',
      etag: '"tiny"',
    };
    if (req.method === 'HEAD') {
      res.writeHead(200, { ...headers, 'content-length': String(total) }).end();
      return;
    }
    const range = req.headers.range ?? '';
    ranges.push(range);
    const match = options.ignoreRange ? null : /^bytes=(\d+)-(\d*)$/.exec(range);
    const start = match ? Number(match[1]) : 0;
    const end = match?.[2] ? Number(match[2]) : total - 1;
    const body = options.bytes.subarray(start, end + 1);
    res.writeHead(match ? 206 : 200, {
      ...headers,
      'content-length': String(body.byteLength),
      ...(match ? { 'content-range': `bytes ${start}-${end}/${total}` } : {}),
    });
    if (cut !== undefined && range && cut < body.byteLength) {
      // A clean close (FIN) mid-body: the client gets every byte sent, then a short body.
      res.write(body.subarray(0, cut), () => res.socket?.end());
      cut = undefined;
      return;
    }
    if (stall !== undefined && match && stall < body.byteLength) {
      res.write(body.subarray(0, stall));
      stall = undefined;
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ranges,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
