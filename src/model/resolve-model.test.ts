import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../errors/index.js';
import { startFakeAnthropic } from '../testing/fake-anthropic-server.js';
import { startFakeGemini } from '../testing/fake-gemini-server.js';
import { startFakeOpenAI } from '../testing/fake-openai-server.js';
import type { FakeServer } from '../testing/fake-turn.js';
import { CLAUDE_ALIASES } from './claude-models.js';
import { describeModelSetup, parseModelString, resolveModelClient } from './resolve-model.js';
import type { ModelClient, ModelChunk } from './types.js';

let fake: FakeServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
  fake = undefined;
});

async function textOf(client: ModelClient, model: string): Promise<string> {
  const chunks: ModelChunk[] = [];
  const request = {
    model,
    messages: [{ role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hi' }] }],
    tools: [],
    config: {},
  };
  for await (const chunk of client.generate(request, new AbortController().signal))
    chunks.push(chunk);
  return chunks.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseModelString', () => {
  it.each([
    ['gemini-2.5-flash', 'gemini', 'gemini-2.5-flash'],
    ['gemini:gemini-2.5-pro', 'gemini', 'gemini-2.5-pro'],
    ['models/gemini-2.5-flash', 'gemini', 'models/gemini-2.5-flash'],
    ['openai:gpt-4.1', 'openai', 'gpt-4.1'],
    ['ollama:qwen3', 'ollama', 'qwen3'],
    ['ollama:qwen3:8b', 'ollama', 'qwen3:8b'],
    ['  OpenAI:gpt-4.1 ', 'openai', 'gpt-4.1'],
    ['anthropic:claude-x', 'anthropic', 'claude-x'],
    ['anthropic:sonnet', 'anthropic', CLAUDE_ALIASES['sonnet']],
    // Syntax only: where a bare Claude name goes depends on the environment (routeModel).
    ['sonnet', 'gemini', 'sonnet'],
  ])('%j → %s / %s', (input, provider, model) => {
    expect(parseModelString(input)).toEqual({ provider, model });
  });

  it.each(['bedrock:claude', 'anthropic:', 'openai:', ''])(
    'rejects %j with a ConfigError naming the model forms (advice for any caller, not --model)',
    (input) => {
      const message = configErrorOf(() => parseModelString(input)).message;
      expect(message).toContain('openai:<id>');
      expect(message).not.toContain('--model');
    },
  );
});

describe('resolveModelClient', () => {
  it('routes gemini models to GeminiClient with GEMINI_API_KEY', () => {
    const resolved = resolveModelClient('gemini-2.5-flash', { GEMINI_API_KEY: 'k' });
    expect(resolved.client.provider).toBe('gemini');
    expect(resolved).toMatchObject({ model: 'gemini-2.5-flash', provider: 'gemini' });
  });

  it('routes the ollama: prefix to the OpenAI-compatible client at OLLAMA_BASE_URL', async () => {
    fake = await startFakeOpenAI({ turns: [{ parts: [{ text: 'from ollama' }] }] });
    const { client, model, provider } = resolveModelClient('ollama:qwen3:8b', {
      OLLAMA_BASE_URL: `${fake.baseUrl}/v1`,
    });
    expect(client.provider).toBe('ollama');
    expect({ model, provider }).toEqual({ model: 'qwen3:8b', provider: 'ollama' });
    expect(await textOf(client, model)).toBe('from ollama');
    expect(fake.requests[0]?.body).toMatchObject({ model: 'qwen3:8b' });
  });

  it('uses the local Ollama default when OLLAMA_BASE_URL is unset, and never needs a key', () => {
    const { client } = resolveModelClient('ollama:llama3', {});
    expect(client.provider).toBe('ollama');
  });

  it('reaches an OpenAI-compatible server with OPENAI_BASE_URL and no key', async () => {
    fake = await startFakeOpenAI({ turns: [{ parts: [{ text: 'from vllm' }] }] });
    const { client, model } = resolveModelClient('openai:my-model', {
      OPENAI_BASE_URL: `${fake.baseUrl}/v1`,
    });
    expect(await textOf(client, model)).toBe('from vllm');
  });

  it('sends GEMINI_API_KEY (preferred over GOOGLE_API_KEY) to GOOGLE_GEMINI_BASE_URL', async () => {
    fake = await startFakeGemini({ turns: [{ parts: [{ text: 'from gemini' }] }] });
    const env = {
      GEMINI_API_KEY: 'gemini-key',
      GOOGLE_API_KEY: 'google-key',
      GOOGLE_GEMINI_BASE_URL: fake.baseUrl,
    };
    const { client, model } = resolveModelClient('gemini:gemini-2.5-flash', env);
    expect(await textOf(client, model)).toBe('from gemini');
    expect(fake.requests[0]?.headers['x-goog-api-key']).toBe('gemini-key');
  });

  it('accepts GOOGLE_API_KEY alone', () => {
    expect(resolveModelClient('gemini-2.5-pro', { GOOGLE_API_KEY: 'k' }).client.provider).toBe(
      'gemini',
    );
  });

  it('lets overrides beat the environment', async () => {
    fake = await startFakeGemini({ turns: [{ parts: [{ text: 'ok' }] }] });
    const { client, model } = resolveModelClient(
      'gemini-2.5-flash',
      { GEMINI_API_KEY: 'env-key' },
      {
        apiKey: 'override-key',
        baseUrl: fake.baseUrl,
      },
    );
    await textOf(client, model);
    expect(fake.requests[0]?.headers['x-goog-api-key']).toBe('override-key');
  });

  describe('Anthropic', () => {
    it('routes anthropic:<id> to AnthropicClient at ANTHROPIC_BASE_URL with ANTHROPIC_API_KEY', async () => {
      fake = await startFakeAnthropic({ turns: [{ parts: [{ text: 'from claude' }] }] });
      const resolved = resolveModelClient('anthropic:claude-x', {
        ANTHROPIC_API_KEY: 'anthropic-key',
        ANTHROPIC_BASE_URL: fake.baseUrl,
      });
      expect(resolved.client.provider).toBe('anthropic');
      expect(resolved).toMatchObject({ model: 'claude-x', provider: 'anthropic' });
      expect(await textOf(resolved.client, resolved.model)).toBe('from claude');
      expect(fake.requests[0]?.body).toMatchObject({ model: 'claude-x' });
      expect(fake.requests[0]?.headers['authorization']).toBe('Bearer anthropic-key');
    });

    it('sends sonnet to Anthropic as the current Sonnet id when ANTHROPIC_API_KEY is set', async () => {
      fake = await startFakeAnthropic({ turns: [{ parts: [{ text: 'ok' }] }] });
      const { client, model, provider } = resolveModelClient('sonnet', {
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_BASE_URL: fake.baseUrl,
        GEMINI_API_KEY: 'g',
      });
      expect({ model, provider }).toEqual({
        model: CLAUDE_ALIASES['sonnet'],
        provider: 'anthropic',
      });
      await textOf(client, model);
      expect(fake.requests[0]?.body).toMatchObject({ model: CLAUDE_ALIASES['sonnet'] });
    });

    it.each([
      ['opus', CLAUDE_ALIASES['opus']],
      ['HAIKU', CLAUDE_ALIASES['haiku']],
      ['claude-opus-4-1', 'claude-opus-4-1'],
    ])('sends the bare name %s to Anthropic as %s when the key is set', (name, id) => {
      expect(resolveModelClient(name, { ANTHROPIC_API_KEY: 'k' })).toMatchObject({
        model: id,
        provider: 'anthropic',
      });
    });

    it('without ANTHROPIC_API_KEY, a bare Claude name is a setup error naming the key (Gemini cannot serve it)', () => {
      const error = configErrorOf(() => resolveModelClient('sonnet', { GEMINI_API_KEY: 'g' }));
      expect(error.message).toContain('ANTHROPIC_API_KEY');
      expect(error.message).toContain('"sonnet" is a Claude model');
    });

    it('keeps an explicit gemini: prefix with Gemini, whatever the name', () => {
      expect(
        resolveModelClient('gemini:claude-lookalike', {
          GEMINI_API_KEY: 'g',
          ANTHROPIC_API_KEY: 'k',
        }).provider,
      ).toBe('gemini');
    });

    it('reaches a proxy at ANTHROPIC_BASE_URL without a key, and needs one of the two', async () => {
      fake = await startFakeAnthropic({ turns: [{ parts: [{ text: 'via proxy' }] }] });
      const { client, model } = resolveModelClient('anthropic:claude-x', {
        ANTHROPIC_BASE_URL: fake.baseUrl,
      });
      expect(await textOf(client, model)).toBe('via proxy');
      expect(configErrorOf(() => resolveModelClient('anthropic:claude-x', {})).message).toContain(
        'ANTHROPIC_API_KEY',
      );
    });

    it('reads ANTHROPIC_BASE_URL from the environment it is given, not from process.env', async () => {
      fake = await startFakeAnthropic({ turns: [{ parts: [{ text: 'right place' }] }] });
      vi.stubEnv('ANTHROPIC_BASE_URL', 'http://127.0.0.1:9');
      const { client, model } = resolveModelClient('anthropic:claude-x', {
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_BASE_URL: fake.baseUrl,
      });
      expect(await textOf(client, model)).toBe('right place');
    });
  });

  describe('when nothing is configured', () => {
    it.each(['gemini-2.5-flash', 'openai:gpt-4.1'])(
      'throws a ConfigError for %s naming GEMINI_API_KEY, OPENAI_BASE_URL and the model names, advice a library caller can follow (no --model)',
      (modelString) => {
        const error = configErrorOf(() => resolveModelClient(modelString, {}));
        expect(error.code).toBe('config_error');
        expect(error.message).toContain('GEMINI_API_KEY');
        expect(error.message).toContain('OPENAI_BASE_URL');
        expect(error.message).toContain('openai:<id>');
        expect(error.message).not.toContain('--model');
      },
    );

    it('a bare OpenAI name (gpt-5) says which providers could serve it and what to set, not that Gemini needs a key', () => {
      const error = configErrorOf(() => resolveModelClient('gpt-5', { GEMINI_API_KEY: 'g' }));
      expect(error.message).toContain('No configured provider serves "gpt-5"');
      expect(error.message).toContain('OPENAI_API_KEY');
      expect(error.message).toContain('openai:gpt-5');
      expect(error.message).toContain('ollama:gpt-5');
      expect(error.message).not.toContain('--model');
    });

    it('a bare OpenAI name goes to OpenAI when OPENAI_API_KEY or OPENAI_BASE_URL is set', () => {
      expect(resolveModelClient('gpt-5', { OPENAI_API_KEY: 'k' })).toMatchObject({
        provider: 'openai',
        model: 'gpt-5',
      });
      expect(resolveModelClient('o3', { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).provider).toBe(
        'openai',
      );
      expect(
        resolveModelClient('gemini-2.5-flash', { OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'g' })
          .provider,
      ).toBe('gemini');
    });

    it('treats blank variables as unset', () => {
      expect(() => resolveModelClient('gemini-2.5-flash', { GEMINI_API_KEY: '  ' })).toThrow(
        ConfigError,
      );
    });
  });
});

describe('describeModelSetup', () => {
  it('says which variables are set without printing their values', () => {
    const text = describeModelSetup({ GEMINI_API_KEY: 'super-secret-value' });
    expect(text).toContain('GEMINI_API_KEY set');
    expect(text).toContain('OPENAI_API_KEY not set');
    expect(text).toContain('ollama:<id>');
    expect(text).toContain('ANTHROPIC_API_KEY not set');
    expect(text).not.toContain('super-secret-value');
  });
});
