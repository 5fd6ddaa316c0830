import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEnvironment } from '../../cli/agent-environment.js';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import { createRuntime } from '../../runtime/loop/runtime.js';
import { agentsMcpServer } from './agents-mcp-server.js';

let project: string;

beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'cadre-mcp-subagent-')));
  await mkdir(join(project, 'agents'));
  await writeFile(
    join(project, 'agents', 'writer.yaml'),
    'name: writer\ndescription: Writes notes.\ntoolConfig:\n  tools: [write_file]\npromptConfig:\n  systemPrompt: "ROLE:writer"\n',
  );
  await writeFile(
    join(project, 'agents', 'desk.yaml'),
    'name: desk\ndescription: Delegates writing.\ntoolConfig:\n  tools: [writer]\npromptConfig:\n  systemPrompt: "ROLE:desk"\n',
  );
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

const role = (r: ModelRequest): string => /ROLE:(\w+)/.exec(r.systemInstruction ?? '')?.[1] ?? '?';
const answered = (r: ModelRequest): boolean =>
  (r.messages.at(-1)?.parts ?? []).some((p) => p.kind === 'function_response');

describe('cadre mcp: a subagent’s side effect is asked through elicitation (scripted model)', () => {
  it('names the path in the question, and the approved write happens once', async () => {
    const model = new ScriptedModel((r): ScriptedTurn => {
      if (role(r) === 'writer')
        return answered(r)
          ? { parts: [{ text: 'written' }] }
          : {
              parts: [
                { functionCall: { name: 'write_file', args: { path: 'n.txt', content: 'hi' } } },
              ],
            };
      return answered(r)
        ? { parts: [{ text: 'desk done' }] }
        : { parts: [{ functionCall: { name: 'writer', args: { prompt: 'write n.txt' } } }] };
    });
    const environment = await agentEnvironment({
      stdout: () => {},
      stderr: () => {},
      env: { HOME: project },
      cwd: project,
      isTTY: false,
    });
    const server = agentsMcpServer({
      agents: environment.registry,
      workspace: project,
      runtime: await createRuntime(),
      model,
      builtins: false,
    });
    const client = new Client(
      { name: 'test-client', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    const asked: ElicitRequest[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return { action: 'accept', content: { decision: 'approve' } };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const result = (await client.callTool({
        name: 'desk',
        arguments: { prompt: 'Write a note' },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(await readFile(join(project, 'n.txt'), 'utf8')).toBe('hi');
      expect(asked).toHaveLength(1);
      expect((asked[0]!.params as { message: string }).message).toMatch(
        /^The agent desk › writer wants to run write_file: Write 2 bytes to n\.txt/,
      );
    } finally {
      await client.close();
      await server.close();
    }
  });
});
