import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDefinition } from './load-definition.js';
import { meansRunDefault, servedByDefault, servesModelIn } from './model-names.js';

const WITH_KEY = { ANTHROPIC_API_KEY: 'k' };

describe('servedByDefault', () => {
  it.each(['gemini-2.5-flash', 'gemma-3-27b', 'gpt-4.1', 'o3', 'openai:x', 'anthropic:claude-x'])(
    'serves %s whatever the environment',
    (model) => {
      expect(servedByDefault(model, {})).toBe(true);
    },
  );

  it.each(['sonnet', 'opus', 'haiku', 'Sonnet', 'claude-opus-4-1'])(
    'serves the Claude name %s only when ANTHROPIC_API_KEY is set',
    (model) => {
      expect(servedByDefault(model, {})).toBe(false);
      expect(servedByDefault(model, { ANTHROPIC_API_KEY: '  ' })).toBe(false);
      expect(servedByDefault(model, WITH_KEY)).toBe(true);
    },
  );

  it('serves neither unknown names nor `inherit` (which means the run default)', () => {
    expect(servedByDefault('mistral-large', WITH_KEY)).toBe(false);
    expect(servedByDefault('inherit', WITH_KEY)).toBe(false);
    expect(meansRunDefault('inherit')).toBe(true);
  });
});

describe('a Claude Code file naming model: sonnet', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cadre-model-names-'));
    file = path.join(dir, 'helper.md');
    await writeFile(
      file,
      '---\nname: helper\ndescription: Helps.\ntools: Read, Grep\nmodel: sonnet\n---\nYou help.\n',
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps sonnet when the environment has ANTHROPIC_API_KEY', async () => {
    const { definition, warnings } = await loadDefinition(file, {
      cwd: dir,
      servesModel: servesModelIn(WITH_KEY),
    });
    expect(definition.source?.foreign).toBe('claude-code');
    expect(definition.modelConfig?.model).toBe('sonnet');
    expect(warnings.map((w) => w.message).join('\n')).not.toContain('serves model');
  });

  it("falls back to the run's default model, with a warning, without the key", async () => {
    const { definition, warnings } = await loadDefinition(file, {
      cwd: dir,
      servesModel: servesModelIn({}),
    });
    expect(definition.modelConfig?.model).toBeUndefined();
    expect(warnings.map((w) => w.message)).toContain(
      'no configured provider serves model "sonnet"; the run\'s default model is used',
    );
  });
});
