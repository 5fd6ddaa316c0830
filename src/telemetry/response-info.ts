import type { Attributes } from '@opentelemetry/api';
import { GenAI, providerName } from './gen-ai-attributes.js';
import { isRecord } from './message-content.js';

/** What a usage event says about the model response it counted (see ModelResponseInfo). */
export interface ResponseInfo {
  provider?: string;
  id?: string;
  model?: string;
  finishReason?: string;
  server?: { address: string; port: number };
}

/** Reads `data.response` of a usage event; anything malformed is left out. */
export function responseInfo(data: Readonly<Record<string, unknown>>): ResponseInfo {
  const raw = isRecord(data.response) ? data.response : {};
  const text = (key: string): string | undefined => {
    const value = raw[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const provider = text('provider');
  const id = text('id');
  const model = text('model');
  const finishReason = text('finishReason');
  const server = serverOf(text('endpoint'));
  return {
    ...(provider ? { provider: providerName(provider) } : {}),
    ...(id ? { id } : {}),
    ...(model ? { model } : {}),
    ...(finishReason ? { finishReason } : {}),
    ...(server ? { server } : {}),
  };
}

/** `server.address` and `server.port` of a base URL, the scheme's port when none is given. */
function serverOf(endpoint: string | undefined): ResponseInfo['server'] {
  if (!endpoint) return undefined;
  try {
    const url = new URL(endpoint);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return { address: url.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    return undefined;
  }
}

/** The response attributes of a `chat` span. */
export function responseAttributes(info: ResponseInfo, finishReason: string): Attributes {
  return {
    ...(info.id ? { [GenAI.responseId]: info.id } : {}),
    ...(info.model ? { [GenAI.responseModel]: info.model } : {}),
    [GenAI.responseFinishReasons]: [finishReason],
    ...(info.server
      ? { [GenAI.serverAddress]: info.server.address, [GenAI.serverPort]: info.server.port }
      : {}),
  };
}

/**
 * The provider when no response named it (a run that failed before its
 * first answer, a scripted model): read from the model's name, else
 * `_OTHER`, as the conventions spell a provider they do not list.
 */
export function providerOfModel(model: string | undefined): string {
  const name = (model ?? '').toLowerCase();
  if (name.startsWith('gemini')) return 'gcp.gemini';
  if (name.startsWith('claude')) return 'anthropic';
  if (/^(gpt-|o\d|chatgpt)/.test(name)) return 'openai';
  return '_OTHER';
}
