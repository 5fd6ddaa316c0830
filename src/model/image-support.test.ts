import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseContextWindows } from '../cost/context-windows.js';
import { collectChunks } from '../testing/collect-chunks.js';
import { startFakeOpenAI, type FakeServer } from '../testing/fake-openai-server.js';
import { acceptsImages, projectImageSupport, TEXT_ONLY_MODELS } from './image-support.js';
import { resolveModelClient } from './resolve-model.js';
import { IMAGE_OMITTED } from './text-only-client.js';
import type { Message, ModelRequest } from './types.js';

const PIXEL = 'iVBORw0KGgo=';

/** A turn that called `snapshot`, and its answer with two images. */
const conversation: Message[] = [
  { role: 'user', parts: [{ kind: 'text', text: 'Look at the page.' }] },
  { role: 'model', parts: [{ kind: 'function_call', id: 'c1', name: 'snapshot', args: {} }] },
  {
    role: 'user',
    parts: [
      {
        kind: 'function_response',
        id: 'c1',
        name: 'snapshot',
        response: { output: 'the page' },
        images: [
          { mimeType: 'image/png', data: PIXEL },
          { mimeType: 'image/png', data: PIXEL },
        ],
      },
    ],
  },
];

const request = (model: string): ModelRequest => ({
  model,
  messages: conversation,
  tools: [],
  config: {},
});

let dir: string;
let fake: FakeServer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-images-'));
  await mkdir(path.join(dir, '.cadre'));
  await writeFile(
    path.join(dir, '.cadre/models.json'),
    JSON.stringify({
      'my-local-text-model': { images: false },
      'o3-mini-vision': { contextWindow: 1000, images: true },
    }),
  );
  fake = await startFakeOpenAI({
    turns: [{ parts: [{ text: 'a' }] }, { parts: [{ text: 'b' }] }, { parts: [{ text: 'c' }] }],
  });
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const env = () => ({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${fake.baseUrl}/v1` });
const sentContent = (index: number): string => JSON.stringify(fake.requests[index]?.body);

describe('tool images and models that take text only', () => {
  it('the model table: built-in text-only models, and .cadre/models.json "images" on top', () => {
    expect(acceptsImages('gpt-4.1', TEXT_ONLY_MODELS)).toBe(true);
    expect(acceptsImages('openai:o3-mini-2025-01-31', TEXT_ONLY_MODELS)).toBe(false);
    const table = projectImageSupport(dir);
    expect(acceptsImages('ollama:my-local-text-model', table)).toBe(false);
    expect(acceptsImages('o3-mini-vision', table)).toBe(true);
    expect(projectImageSupport(path.join(dir, 'nowhere'))).toBe(TEXT_ONLY_MODELS);
    // The context-window reader takes an entry with only "images", and refuses a bad one.
    expect(parseContextWindows('{"m": {"images": false}}', 'models.json')).toEqual({});
    expect(() => parseContextWindows('{"m": {"images": "no"}}', 'models.json')).toThrow(
      /"images" must be true or false/,
    );
  });

  it('a text-only model gets a note in place of each image; others get the images (fake OpenAI server)', async () => {
    const textOnly = resolveModelClient('openai:my-local-text-model', env(), { cwd: dir });
    await collectChunks(textOnly.client, request(textOnly.model));
    const builtIn = resolveModelClient('openai:gpt-3.5-turbo', env(), { cwd: dir });
    await collectChunks(builtIn.client, request(builtIn.model));
    const vision = resolveModelClient('openai:gpt-4.1', env(), { cwd: dir });
    await collectChunks(vision.client, request(vision.model));

    for (const index of [0, 1]) {
      const sent = sentContent(index);
      expect(sent).not.toContain(PIXEL);
      expect(sent).not.toContain('image_url');
      expect(sent.split(IMAGE_OMITTED)).toHaveLength(3);
      expect(sent).toContain('the page');
    }
    expect(sentContent(2)).toContain(`data:image/png;base64,${PIXEL}`);
    expect(sentContent(2)).not.toContain(IMAGE_OMITTED);
  });
});
