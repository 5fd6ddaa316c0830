import { defineTool, type Tool } from '../tools/types.js';

/** A read-only tool for tests: echoes its input, counting calls. */
export function echoTool(calls: Array<Record<string, unknown>> = []): Tool {
  return defineTool<{ text: string }>({
    name: 'echo',
    description: 'Echo the text back.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
    sideEffect: false,
    execute: (args) => {
      calls.push(args);
      return Promise.resolve({ echoed: args.text });
    },
  });
}

/** A side-effecting tool for tests: records what it "sent". */
export function sendTool(sent: Array<Record<string, unknown>> = []): Tool {
  return defineTool<{ to: string }>({
    name: 'send',
    description: 'Send a message.',
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'string' } },
      required: ['to'],
      additionalProperties: false,
    },
    sideEffect: true,
    defaultApproval: 'require',
    preview: (args) => `Send a message to ${args.to}`,
    execute: (args) => {
      sent.push(args);
      return Promise.resolve({ sent: true });
    },
  });
}
