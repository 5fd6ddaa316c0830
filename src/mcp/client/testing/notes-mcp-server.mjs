// A small MCP server for tests, speaking real MCP over stdio (or, started with
// `--http` or `--sse`, streamable HTTP or the older HTTP+SSE transport). It keeps notes in memory
// and appends one line per start to the file named by NOTES_STARTS, so tests
// can count how many processes were started.
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

export function notesServer() {
  const notes = [];
  const server = new Server({ name: 'notes', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: 'add_note',
        description: 'Add a note.',
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string' } },
          required: ['text'],
        },
      },
      {
        name: 'list_notes',
        description: 'List the notes.',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
      },
      {
        name: 'whoami',
        description: 'Says which process answers and whether SECRET_TOKEN reached it.',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
      },
      // Two names that become one once made safe for function calling.
      ...['odd.name', 'odd_name'].map((name) => ({
        name,
        description: `Answers with its name (${name}).`,
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
      })),
      // Lies: labelled read-only, but it deletes every note.
      {
        name: 'wipe_notes',
        description: 'Deletes every note.',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
      },
      {
        name: 'dump',
        description: 'Answers with `chars` characters of data, structured and as its JSON text.',
        inputSchema: { type: 'object', properties: { chars: { type: 'number' } } },
        annotations: { readOnlyHint: true },
      },
      {
        name: 'link_notes',
        description: 'Answers with links to the notes (text, binary, large and missing resources).',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
      },
      {
        name: 'explode',
        description: 'Always fails.',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'add_note':
        notes.push(String(args.text));
        return { content: [{ type: 'text', text: `added note ${notes.length}` }] };
      case 'list_notes':
        return {
          content: [{ type: 'text', text: notes.join('\n') }],
          structuredContent: { notes: [...notes] },
        };
      case 'whoami':
        return {
          content: [
            {
              type: 'text',
              text: JSON.stringify({
                pid: process.pid,
                secret: process.env.SECRET_TOKEN ?? null,
                listed: process.env.LISTED_TOKEN ?? null,
              }),
            },
          ],
        };
      case 'odd.name':
      case 'odd_name':
        return { content: [{ type: 'text', text: request.params.name }] };
      case 'wipe_notes':
        notes.length = 0;
        return { content: [{ type: 'text', text: 'wiped' }] };
      case 'dump': {
        const data = { blob: 'x'.repeat(Number(args.chars ?? 0)) };
        return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
      }
      case 'link_notes':
        return {
          content: [
            { type: 'text', text: 'Here are the notes:' },
            ...['all', 'picture', 'huge', 'missing'].map((name) => ({
              type: 'resource_link',
              uri: `notes://${name}`,
              name,
            })),
          ],
        };
      case 'explode':
        return { isError: true, content: [{ type: 'text', text: 'the notebook is on fire' }] };
      default:
        throw new Error(`unknown tool ${request.params.name}`);
    }
  });
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const uri = request.params.uri;
    switch (uri) {
      case 'notes://all':
        return { contents: [{ uri, mimeType: 'text/plain', text: notes.join('\n') }] };
      case 'notes://picture':
        return { contents: [{ uri, mimeType: 'image/png', blob: 'iVBORw0KGgo=' }] };
      case 'notes://huge':
        return { contents: [{ uri, mimeType: 'text/plain', text: 'y'.repeat(50_000) }] };
      default:
        throw new Error(`no resource ${uri}`);
    }
  });
  return server;
}

if (process.argv[2] === '--stdio') {
  if (process.env.NOTES_STARTS) appendFileSync(process.env.NOTES_STARTS, `${process.pid}\n`);
  await notesServer().connect(new StdioServerTransport());
}

// `--http`: streamable HTTP on 127.0.0.1, stateless (a server per request);
// prints the port on stdout. Requests must carry `Bearer $NOTES_TOKEN`.
if (process.argv[2] === '--http') {
  const { createServer } = await import('node:http');
  const { StreamableHTTPServerTransport } =
    await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const http = createServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${process.env.NOTES_TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = notesServer();
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, '127.0.0.1', () => process.stdout.write(`${http.address().port}\n`));
}

// `--sse`: the older HTTP+SSE transport on 127.0.0.1 (GET /sse opens a session's
// stream, POST /messages?sessionId= carries its requests); prints the port on
// stdout. Requests must carry `Bearer $NOTES_TOKEN`.
if (process.argv[2] === '--sse') {
  const { createServer } = await import('node:http');
  const { SSEServerTransport } = await import('@modelcontextprotocol/sdk/server/sse.js');
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${process.env.NOTES_TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      res.on('close', () => sessions.delete(transport.sessionId));
      await notesServer().connect(transport);
      return;
    }
    const transport =
      req.method === 'POST' && url.pathname === '/messages'
        ? sessions.get(url.searchParams.get('sessionId'))
        : undefined;
    if (!transport) {
      res.writeHead(404).end();
      return;
    }
    await transport.handlePostMessage(req, res);
  });
  http.listen(0, '127.0.0.1', () => process.stdout.write(`${http.address().port}\n`));
}
