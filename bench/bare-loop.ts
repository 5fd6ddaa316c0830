import type { Message, ModelClient, Part } from '../src/model/types.js';
import type { Tool, ToolContext } from '../src/tools/types.js';

/**
 * The baseline: the smallest loop that does the same work as an agent run
 * (call the model, run the tools it asks for, feed results back) with no
 * framework around it.
 */
export async function bareLoop(model: ModelClient, tool: Tool, ctx: ToolContext): Promise<string> {
  const messages: Message[] = [{ role: 'user', parts: [{ kind: 'text', text: 'go' }] }];
  const declarations = [
    { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  ];
  for (;;) {
    const parts: Part[] = [];
    let text = '';
    for await (const chunk of model.generate(
      { model: 'm', messages, tools: declarations, config: {} },
      ctx.signal,
    )) {
      if (chunk.type === 'function_call') parts.push(chunk.call);
      else if (chunk.type === 'text') text += chunk.text;
    }
    if (parts.length === 0) return text;
    messages.push({ role: 'model', parts });
    const responses: Part[] = [];
    for (const part of parts) {
      if (part.kind !== 'function_call') continue;
      const output = await tool.execute(part.args, ctx);
      responses.push({
        kind: 'function_response',
        id: part.id,
        name: part.name,
        response: { output },
      });
    }
    messages.push({ role: 'user', parts: responses });
  }
}
