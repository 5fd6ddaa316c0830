/**
 * Cadre's conversation as node-llama-cpp's chat history: the chat wrapper
 * then renders it in the model's own template. A model turn's calls carry
 * the results from the tool answers that follow them, as the library keeps
 * a call and its result together.
 */
import type {
  ChatHistoryItem,
  ChatModelFunctionCall,
  ChatModelFunctions,
  ChatModelResponse,
} from 'node-llama-cpp';
import { grammarSchema } from './local-grammar-schema.js';
import type { FunctionResponsePart, Message, ModelRequest, ToolDeclaration } from './types.js';

/** The history to answer: the conversation, then the model's (empty) turn to fill. */
export function chatHistoryOf(request: ModelRequest): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  if (request.systemInstruction) history.push({ type: 'system', text: request.systemInstruction });
  const results = resultsById(request.messages);
  for (const message of request.messages) {
    if (message.role === 'model') {
      history.push(modelItem(message, results));
      continue;
    }
    const text = message.parts
      .flatMap((part) => (part.kind === 'text' ? [part.text] : []))
      .join('\n');
    // Tool answers travel with their calls; a message of answers only adds no user turn.
    if (text !== '') history.push({ type: 'user', text });
  }
  history.push({ type: 'model', response: [] });
  return history;
}

function modelItem(
  message: Message,
  results: ReadonlyMap<string, FunctionResponsePart>,
): ChatModelResponse {
  const response: ChatModelResponse['response'] = [];
  let first = true;
  for (const part of message.parts) {
    switch (part.kind) {
      case 'text':
        response.push(part.text);
        break;
      case 'thought':
        response.push({ type: 'segment', segmentType: 'thought', text: part.text, ended: true });
        break;
      case 'function_call': {
        const answer = results.get(part.id)?.response;
        const call: ChatModelFunctionCall = {
          type: 'functionCall',
          name: part.name,
          params: part.args,
          result:
            answer === undefined
              ? 'No result.'
              : 'error' in answer
                ? { error: answer.error }
                : answer.output,
          ...(first ? { startsNewChunk: true } : {}),
        };
        response.push(call);
        first = false;
        break;
      }
      case 'function_response':
        break;
      default:
        part satisfies never;
    }
  }
  return { type: 'model', response };
}

function resultsById(messages: readonly Message[]): Map<string, FunctionResponsePart> {
  const results = new Map<string, FunctionResponsePart>();
  for (const message of messages)
    for (const part of message.parts)
      if (part.kind === 'function_response') results.set(part.id, part);
  return results;
}

/** The tools as the library's functions, each with a grammar its arguments must follow. */
export function functionsOf(tools: readonly ToolDeclaration[]): ChatModelFunctions {
  return Object.fromEntries(
    tools.map((tool) => [
      tool.name,
      { description: tool.description, params: grammarSchema(tool.parameters) },
    ]),
  );
}
