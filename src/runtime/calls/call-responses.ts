import type { FunctionCallPart, FunctionResponsePart } from '../../model/types.js';
import { capOutput, capText } from './cap-output.js';

// Every answer to a tool call is built here, so every one is within the cap.

export function okResponse(call: FunctionCallPart, output: unknown): FunctionResponsePart {
  return {
    kind: 'function_response',
    id: call.id,
    name: call.name,
    response: { output: capOutput(output) },
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
