// A stdio MCP server for tests of what a server may ask of its client:
// the client's roots, a model answer (sampling), a person's decision
// (elicitation), and a crash. Each start appends its pid to HOST_STARTS.
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const tool = (name, description, properties = {}) => ({
  name,
  description,
  inputSchema: { type: 'object', properties },
  annotations: { readOnlyHint: true },
});

const server = new Server({ name: 'host', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    tool('roots', "Lists the client's roots."),
    tool('summarize', 'Asks the client for a summary.', { text: { type: 'string' } }),
    tool('ask_first', 'Asks the person before it answers.'),
    tool('ask_name', 'Asks the person for a name (a required field with no default).'),
    tool('crash', 'Writes to stderr and exits.'),
    tool('snapshot', 'Answers with a caption and a 1x1 PNG.'),
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const text = (value) => ({ content: [{ type: 'text', text: value }] });
  switch (request.params.name) {
    case 'roots': {
      const { roots } = await server.listRoots();
      return text(roots.map((root) => root.uri).join('\n'));
    }
    case 'summarize': {
      const answer = await server.createMessage({
        systemPrompt: 'Summarise in three words.',
        messages: [
          { role: 'user', content: { type: 'text', text: String(request.params.arguments?.text) } },
        ],
        maxTokens: 50,
      });
      return text(`sampled by ${answer.model}: ${answer.content.text}`);
    }
    case 'ask_first': {
      const answer = await server.elicitInput({
        message: 'Delete the cache?',
        requestedSchema: {
          type: 'object',
          properties: { keep: { type: 'boolean', default: false } },
        },
      });
      return text(
        `person said ${answer.action}${answer.content ? ` ${JSON.stringify(answer.content)}` : ''}`,
      );
    }
    case 'ask_name': {
      const answer = await server.elicitInput({
        message: 'Your name?',
        requestedSchema: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
        },
      });
      return text(`person said ${answer.action}`);
    }
    case 'snapshot':
      return {
        content: [
          { type: 'text', text: 'one red pixel' },
          { type: 'image', mimeType: 'image/png', data: PIXEL },
        ],
      };
    case 'crash':
      process.stderr.write('loading index\nfatal: the index is corrupt\n');
      setTimeout(() => process.exit(3), 20);
      return new Promise(() => {});
    default:
      throw new Error(`unknown tool ${request.params.name}`);
  }
});

if (process.env.HOST_STARTS) appendFileSync(process.env.HOST_STARTS, `${process.pid}\n`);
await server.connect(new StdioServerTransport());
