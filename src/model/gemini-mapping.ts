/**
 * Neutral messages ⇄ Gemini `Content`. Type-only imports: the SDK itself is
 * loaded lazily by the client.
 */
import type {
  Content,
  GenerateContentConfig,
  GenerateContentParameters,
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  Part as GeminiPart,
} from '@google/genai';
import { ModelError } from '../errors/index.js';
import type { Message, ModelChunk, ModelRequest, Part, Usage } from './types.js';

export function toGeminiParams(
  request: ModelRequest,
  signal: AbortSignal,
): GenerateContentParameters {
  const config: GenerateContentConfig = {
    abortSignal: signal,
    ...(request.traceHeaders ? { httpOptions: { headers: { ...request.traceHeaders } } } : {}),
  };
  if (request.systemInstruction) config.systemInstruction = request.systemInstruction;
  if (request.tools.length > 0) {
    config.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parametersJsonSchema: tool.parameters,
        })),
      },
    ];
  }
  const { temperature, topP, topK, stopSequences, thinkingBudget, maxOutputTokens } =
    request.config;
  if (temperature !== undefined) config.temperature = temperature;
  if (topP !== undefined) config.topP = topP;
  if (topK !== undefined) config.topK = topK;
  if (stopSequences?.length) config.stopSequences = stopSequences;
  if (maxOutputTokens !== undefined) config.maxOutputTokens = maxOutputTokens;
  if (thinkingBudget !== undefined) {
    // A budget of 0 turns thinking off, so there are no thoughts to include.
    config.thinkingConfig = { thinkingBudget, includeThoughts: thinkingBudget !== 0 };
  }
  return { model: request.model, contents: toGeminiContents(request.messages), config };
}

export function toGeminiContents(messages: readonly Message[]): Content[] {
  return messages
    .map((message) => ({ role: message.role, parts: message.parts.flatMap(toGeminiPart) }))
    .filter((content) => content.parts.length > 0); // Gemini rejects a content without parts.
}

function toGeminiPart(part: Part): GeminiPart[] {
  switch (part.kind) {
    case 'text':
      // An empty text part is only worth sending when it carries a signature.
      return part.text === '' && part.signature === undefined
        ? []
        : [signed({ text: part.text }, part.signature)];
    case 'thought':
      return [signed({ text: part.text, thought: true }, part.signature)];
    case 'function_call':
      return [
        signed({ functionCall: { id: part.id, name: part.name, args: part.args } }, part.signature),
      ];
    case 'function_response':
      // A tool's images follow its response in the same turn.
      return [
        { functionResponse: { id: part.id, name: part.name, response: part.response } },
        ...(part.images ?? []).map(({ mimeType, data }) => ({ inlineData: { mimeType, data } })),
      ];
  }
}

function signed(part: GeminiPart, signature: string | undefined): GeminiPart {
  return signature === undefined ? part : { ...part, thoughtSignature: signature };
}

/** The chunks of one streamed Gemini response, in order. */
export function* chunksOf(
  response: GenerateContentResponse,
  nextCallId: () => string,
): Generator<ModelChunk> {
  const blocked = response.promptFeedback?.blockReason;
  if (blocked) {
    const why = response.promptFeedback?.blockReasonMessage;
    throw new ModelError(`Gemini blocked the prompt (${blocked})${why ? `: ${why}` : ''}`, {
      retryable: false,
    });
  }
  for (const part of response.candidates?.[0]?.content?.parts ?? []) {
    const signature = part.thoughtSignature;
    if (part.functionCall) {
      const { id, name, args } = part.functionCall;
      yield {
        type: 'function_call',
        call: {
          kind: 'function_call',
          id: id || nextCallId(),
          name: name ?? '',
          args: args ?? {},
          ...withSignature(signature),
        },
      };
    } else if (part.text !== undefined || signature !== undefined) {
      const text = part.text ?? '';
      // A signature may arrive on an empty part; it must still reach the history.
      if (text === '' && signature === undefined) continue;
      yield { type: part.thought ? 'thought' : 'text', text, ...withSignature(signature) };
    }
  }
}

function withSignature(signature: string | undefined): { signature?: string } {
  return signature === undefined ? {} : { signature };
}

export function usageOf(metadata: GenerateContentResponseUsageMetadata | undefined): Usage {
  const inputTokens = metadata?.promptTokenCount ?? 0;
  const outputTokens = metadata?.candidatesTokenCount ?? 0;
  const thoughtTokens = metadata?.thoughtsTokenCount ?? 0;
  return {
    inputTokens,
    outputTokens,
    thoughtTokens,
    totalTokens: metadata?.totalTokenCount ?? inputTokens + outputTokens + thoughtTokens,
  };
}
