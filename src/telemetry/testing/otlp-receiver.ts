import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/*
 * Test support: a stand-in for an OpenTelemetry collector's OTLP/HTTP
 * traces endpoint, on loopback, and readers for what it received.
 */

export interface Export {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body; empty for a protobuf export (read `raw`). */
  body: OtlpBody;
  raw: Buffer;
}

/** The parts of an OTLP/JSON trace export the assertions read. */
export interface OtlpBody {
  resourceSpans: Array<{
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>;
  }>;
}
export interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: OtlpAttribute[];
}
export interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean };
}

/** A collector's OTLP/HTTP traces endpoint on loopback that keeps what it is sent. */
export async function receiver(): Promise<{
  url: string;
  exports: Export[];
  server: Server;
  /** Resolves once what was received satisfies `done` (checked as each export arrives). */
  arrived: (done: (exports: Export[]) => boolean) => Promise<void>;
}> {
  const exports: Export[] = [];
  const waiting: Array<{ done: (exports: Export[]) => boolean; resolve: () => void }> = [];
  const check = () => {
    for (const waiter of [...waiting])
      if (waiter.done(exports)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const plain = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      const json = request.headers['content-type'] === 'application/json';
      exports.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: json ? (JSON.parse(plain.toString('utf8')) as OtlpBody) : { resourceSpans: [] },
        raw: plain,
      });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
      check();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const arrived = (done: (exports: Export[]) => boolean) =>
    new Promise<void>((resolve) => {
      waiting.push({ done, resolve });
      check();
    });
  return { url: `http://127.0.0.1:${port}`, exports, server, arrived };
}

export const spansOf = (exports: Export[]): OtlpSpan[] =>
  exports.flatMap((e) => e.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
export const attribute = (attributes: OtlpAttribute[], key: string): unknown => {
  const value = attributes.find((a) => a.key === key)?.value;
  return (
    value?.stringValue ?? value?.boolValue ?? (value?.intValue ? Number(value.intValue) : undefined)
  );
};

/** Each span with the `service.name` of the process that sent it. */
export const spansWithService = (exports: Export[]): Array<OtlpSpan & { service: unknown }> =>
  exports.flatMap((e) =>
    e.body.resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) =>
        s.spans.map((span) => ({
          ...span,
          service: attribute(r.resource.attributes, 'service.name'),
        })),
      ),
    ),
  );
