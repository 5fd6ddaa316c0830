import type { FunctionCallPart, FunctionResponsePart } from '../../model/types.js';
import { ToolAnswer } from '../../tools/tool-answer.js';
import { capOutput, capText } from './cap-output.js';

// Every answer to a tool call is built here, so every one is within the cap.

export function okResponse(call: FunctionCallPart, output: unknown): FunctionResponsePart {
  // Images travel beside the output, not in it: the output stays text or JSON.
  if (!(output instanceof ToolAnswer) || output.images.length === 0) {
    const plain = output instanceof ToolAnswer ? output.output : output;
    return {
      kind: 'function_response',
      id: call.id,
      name: call.name,
      response: { output: capOutput(plain) },
    };
  }
  return {
    kind: 'function_response',
    id: call.id,
    name: call.name,
    response: { output: capOutput(output.output) },
    images: [...output.images],
  };
}

export function errorResponse(call: FunctionCallPart, error: string): FunctionResponsePart {
  return {
    kind: 'function_response',
    id: call.id,
    name: call.name,
    response: { error: capText(error) },
  };
}
