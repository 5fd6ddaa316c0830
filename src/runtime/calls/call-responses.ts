import type { FunctionCallPart, FunctionResponsePart } from '../../model/types.js';

export function okResponse(call: FunctionCallPart, output: unknown): FunctionResponsePart {
  return { kind: 'function_response', id: call.id, name: call.name, response: { output } };
}

export function errorResponse(call: FunctionCallPart, error: string): FunctionResponsePart {
  return { kind: 'function_response', id: call.id, name: call.name, response: { error } };
}
