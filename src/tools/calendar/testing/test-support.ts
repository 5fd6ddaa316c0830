// Test-only: a tiny CalDAV server on 127.0.0.1, enough for tsdav's discovery and PUT.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCalDav {
  /** Server URL to give tsdav (`CADRE_CALDAV_URL`). */
  url: string;
  /** Stored objects by path, e.g. `/dav/calendars/alice/work/x.ics`. */
  objects: Map<string, { body: string; contentType: string | undefined }>;
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

const USER = 'alice';
const PASSWORD = 'pw';
export const FAKE_CALDAV_CREDENTIALS = { username: USER, password: PASSWORD };

const HOME = `/dav/calendars/${USER}/`;
const CALENDARS = [
  { path: `${HOME}tasks/`, name: 'Tasks', comp: 'VTODO' },
  { path: `${HOME}work/`, name: 'Work', comp: 'VEVENT' },
  { path: `${HOME}personal/`, name: 'Personal', comp: 'VEVENT' },
];

const ok = (prop: string): string =>
  `<d:propstat><d:prop>${prop}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>`;
const response = (href: string, prop: string): string =>
  `<d:response><d:href>${href}</d:href>${ok(prop)}</d:response>`;
const multistatus = (responses: string[]): string =>
  '<?xml version="1.0" encoding="utf-8"?>' +
  '<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">' +
  responses.join('') +
  '</d:multistatus>';

function propfind(path: string, body: string): string | undefined {
  if (body.includes('supported-report-set')) return multistatus([response(path, '')]);
  if (body.includes('current-user-principal')) {
    return multistatus([
      response(
        path,
        `<d:current-user-principal><d:href>/dav/principals/${USER}/</d:href></d:current-user-principal>`,
      ),
    ]);
  }
  if (body.includes('calendar-home-set')) {
    return multistatus([
      response(path, `<c:calendar-home-set><d:href>${HOME}</d:href></c:calendar-home-set>`),
    ]);
  }
  if (path === HOME) {
    return multistatus([
      response(HOME, '<d:resourcetype><d:collection/></d:resourcetype>'),
      ...CALENDARS.map((c) =>
        response(
          c.path,
          `<d:displayname>${c.name}</d:displayname>` +
            '<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>' +
            `<c:supported-calendar-component-set><c:comp name="${c.comp}"/></c:supported-calendar-component-set>`,
        ),
      ),
    ]);
  }
  return undefined;
}

export async function startFakeCalDav(): Promise<FakeCalDav> {
  const objects: FakeCalDav['objects'] = new Map();
  const requests: FakeCalDav['requests'] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push({ method: req.method ?? '', path });
    const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="fake"' }).end();
      return;
    }
    if (req.method === 'PROPFIND') {
      const xml = propfind(path, body);
      if (xml === undefined) res.writeHead(404).end();
      else res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' }).end(xml);
      return;
    }
    if (req.method === 'PUT' && CALENDARS.some((c) => path.startsWith(c.path))) {
      if (req.headers['if-none-match'] === '*' && objects.has(path)) {
        res.writeHead(412).end();
        return;
      }
      objects.set(path, { body, contentType: req.headers['content-type'] });
      res.writeHead(201, { etag: '"1"' }).end();
      return;
    }
    res.writeHead(404).end();
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/dav/`,
    objects,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
