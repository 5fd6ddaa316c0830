import { describe, expect, it } from 'vitest';
import { ScriptedModel, type ScriptedTurn } from '../../model/scripted-model.js';
import type { ModelRequest } from '../../model/types.js';
import type { ToolCallOutcome, ToolInterceptor } from '../../policy/interceptors.js';
import type { AgentDefinition } from '../../definition/types.js';
import { echoTool, sendTool } from '../../testing/test-tools.js';
import type { ConfirmationRequest } from '../../contracts/confirmation.js';
import { run } from '../run-verbs.js';

const agent: AgentDefinition = {
  name: 'a',
  description: 'a',
  promptConfig: {},
  toolConfig: { tools: ['echo', 'send'] },
};
const answered = (r: ModelRequest): boolean =>
  (r.messages.at(-1)?.parts ?? []).some((p) => p.kind === 'function_response');
const twoCalls = (): ScriptedModel =>
  new ScriptedModel((r): ScriptedTurn =>
    answered(r)
      ? {
          parts: [
            {
              text: JSON.stringify(
                (r.messages.at(-1)?.parts ?? []).map((p) =>
                  p.kind === 'function_response' ? p.response : null,
                ),
              ),
            },
          ],
        }
      : {
          parts: [
            { functionCall: { name: 'echo', args: { text: 'hi' } } },
            { functionCall: { name: 'send', args: { to: 'eve' } } },
          ],
        },
  );

describe('interceptors around tool calls (scripted model responses)', () => {
  it('every check runs, deny beats confirm, a denied call never runs, and observers see every outcome', async () => {
    const seen: string[] = [];
    const outcomes: Array<[string, ToolCallOutcome['status']]> = [];
    const sent: Array<Record<string, unknown>> = [];
    const interceptors: ToolInterceptor[] = [
      {
        name: 'confirm-all',
        before: (c) => (seen.push(`confirm:${c.tool}`), { confirm: 'double-check' }),
      },
      {
        name: 'no-eve',
        before: (c) => (
          seen.push(`deny:${c.tool}`),
          c.args.to === 'eve' ? { deny: 'eve is blocked' } : 'allow'
        ),
      },
      { name: 'observer', after: (c, o) => void outcomes.push([c.tool, o.status]) },
      { name: 'broken-observer', after: () => Promise.reject(new Error('observer crashed')) },
    ];
    const asked: ConfirmationRequest[] = [];
    const result = await run(agent, {
      model: twoCalls(),
      tools: [echoTool(), sendTool(sent)],
      inputs: { prompt: 'go' },
      interceptors,
      confirm: (request) => (asked.push(request), Promise.resolve({ kind: 'approve' })),
    });
    expect(seen.sort()).toEqual(['confirm:echo', 'confirm:send', 'deny:echo', 'deny:send']);
    expect(sent).toEqual([]);
    // A read-only call waited for a person because an interceptor asked for it.
    expect(asked.map((a) => a.tool)).toEqual(['echo']);
    expect(outcomes).toEqual([
      ['echo', 'completed'],
      ['send', 'denied'],
    ]);
    expect(result.final_message).toContain('Refused: eve is blocked');
  });
});
