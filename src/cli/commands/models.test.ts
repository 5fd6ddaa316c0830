import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHub, type FakeHub } from '../../testing/fake-model-hub.js';
import { runCliCaptured } from '../../testing/run-cli-captured.js';
import { tinyLlamaGguf } from '../../testing/tiny-gguf.js';
import { LOCAL_MODEL_ALIASES } from '../../model/local-model-aliases.js';
import { parseLocalModel } from '../../model/local-model-ref.js';

const bytes = tinyLlamaGguf();
let dir: string;
let hub: FakeHub;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cadre-models-'));
  hub = await startFakeHub({
    user: 'cadre-test',
    repo: 'tiny-random-GGUF',
    file: 'tiny-random.Q8_0.gguf',
    bytes,
  });
  env = { HF_ENDPOINT: hub.url, CADRE_MODELS_DIR: path.join(dir, 'models') };
});

afterAll(async () => {
  await hub.close();
  await rm(dir, { recursive: true, force: true });
});

describe('cadre models (a generated random-weight GGUF from a loopback fake hub)', () => {
  it('pulls with progress, lists, and removes a model', async () => {
    const pulled = await runCliCaptured(['models', 'pull', 'hf:cadre-test/tiny-random-GGUF:Q8_0'], {
      cwd: dir,
      env,
    });
    expect(pulled.stderr).toContain('100% 0.5 MB of 0.5 MB');
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('--model local:hf:cadre-test/tiny-random-GGUF:Q8_0');

    const listed = await runCliCaptured(['models', 'list', '--json'], { cwd: dir, env });
    const models = JSON.parse(listed.stdout) as Array<{ name: string; bytes: number }>;
    expect(models).toEqual([expect.objectContaining({ bytes: bytes.byteLength })]);
    const name = models[0]?.name ?? '';

    const removed = await runCliCaptured(['models', 'rm', name], { cwd: dir, env });
    expect(removed.code).toBe(0);
    expect(await readdir(path.join(dir, 'models'))).not.toContain(name);
  });

  it('refuses to remove anything outside the models folder', async () => {
    const outside = path.join(dir, 'precious.gguf');
    await writeFile(outside, 'keep me');
    for (const name of ['../precious.gguf', outside, '..', 'sub/../../precious.gguf']) {
      const attempt = await runCliCaptured(['models', 'rm', name], { cwd: dir, env });
      expect(attempt.code, name).toBe(2);
      expect(attempt.stderr).toContain('is not a model name');
    }
    expect(await readdir(dir)).toContain('precious.gguf');
  });

  it('lists the short aliases with size and licence; local:<alias> and pull <alias> name its hub model', async () => {
    const listed = await runCliCaptured(['models', 'list', '--available'], { cwd: dir, env });
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ALIAS\s+MODEL\s+SIZE\s+LICENCE$/);
    expect(lines[1]).toMatch(
      /^qwen3-0\.6b\s+hf:Qwen\/Qwen3-0\.6B-GGUF:Q8_0\s+0\.64 GB\s+Apache-2\.0$/,
    );
    expect(lines).toHaveLength(LOCAL_MODEL_ALIASES.length + 1);
    // The README's table says the same.
    const readme = await readFile(path.join(import.meta.dirname, '../../../README.md'), 'utf8');
    for (const m of LOCAL_MODEL_ALIASES)
      expect(readme).toMatch(
        new RegExp(`\\| \`${m.alias}\`\\s+\\| \`${m.uri}\`\\s+\\| ${m.size}\\s+\\| ${m.licence}`),
      );
    expect(parseLocalModel(' Qwen3-0.6B ', dir)).toEqual({
      kind: 'uri',
      uri: 'hf:Qwen/Qwen3-0.6B-GGUF:Q8_0',
    });
    expect(parseLocalModel('./qwen3-0.6b', dir)).toEqual({
      kind: 'file',
      path: path.join(dir, 'qwen3-0.6b'),
    });
    // The generated random-weight model stands in for the alias's repository on a fake hub.
    const qwen = await startFakeHub({
      user: 'Qwen',
      repo: 'Qwen3-0.6B-GGUF',
      file: 'Qwen3-0.6B-Q8_0.gguf',
      bytes,
    });
    try {
      const pulled = await runCliCaptured(['models', 'pull', 'qwen3-0.6b'], {
        cwd: dir,
        env: { ...env, HF_ENDPOINT: qwen.url },
      });
      expect(pulled.code).toBe(0);
      expect(pulled.stdout).toContain('--model local:qwen3-0.6b');
      expect(qwen.ranges.length).toBeGreaterThan(0);
    } finally {
      await qwen.close();
    }
  });

  it('resumes a pull of the generated random-weight model cut mid-file with a Range request, size checked', async () => {
    const cutAt = 200_000;
    const flaky = await startFakeHub({
      user: 'cadre-test',
      repo: 'cut-random-GGUF',
      file: 'cut-random.Q8_0.gguf',
      bytes,
      cutFirstDownloadAt: cutAt,
    });
    const models = path.join(dir, 'cut-models');
    const cutEnv = { ...env, HF_ENDPOINT: flaky.url, CADRE_MODELS_DIR: models };
    try {
      const first = await runCliCaptured(['models', 'pull', 'hf:cadre-test/cut-random-GGUF:Q8_0'], {
        cwd: dir,
        env: cutEnv,
      });
      expect(first.code).toBe(2);
      const parts = await readdir(models);
      expect(parts).toEqual([expect.stringMatching(/\.gguf\.part$/)]);
      const kept = (await stat(path.join(models, parts[0] ?? ''))).size;
      // What was read before the cut is kept (the HTTP client drops what it had not handed over yet).
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThanOrEqual(cutAt);
      expect(first.stderr).toContain(`cut at ${kept} of ${bytes.byteLength} bytes`);
      const second = await runCliCaptured(
        ['models', 'pull', 'hf:cadre-test/cut-random-GGUF:Q8_0'],
        { cwd: dir, env: cutEnv },
      );
      expect(second.code).toBe(0);
      // The library's own probe asks for no range; the two downloads do.
      expect(flaky.ranges.filter((r) => r !== '')).toEqual(['bytes=0-', `bytes=${kept}-`]);
      const [name] = await readdir(models);
      expect(name).toMatch(/\.gguf$/);
      expect(Buffer.compare(await readFile(path.join(models, name ?? '')), bytes)).toBe(0);
    } finally {
      await flaky.close();
    }
  });

  it('falls back to the whole generated random-weight model when the server ignores Range', async () => {
    const plain = await startFakeHub({
      user: 'cadre-test',
      repo: 'plain-random-GGUF',
      file: 'plain-random.Q8_0.gguf',
      bytes,
      cutFirstDownloadAt: 100_000,
      ignoreRange: true,
    });
    const models = path.join(dir, 'plain-models');
    const plainEnv = { ...env, HF_ENDPOINT: plain.url, CADRE_MODELS_DIR: models };
    try {
      const uri = 'hf:cadre-test/plain-random-GGUF:Q8_0';
      expect(
        (await runCliCaptured(['models', 'pull', uri], { cwd: dir, env: plainEnv })).code,
      ).toBe(2);
      const second = await runCliCaptured(['models', 'pull', uri], { cwd: dir, env: plainEnv });
      expect(second.code).toBe(0);
      const [name] = await readdir(models);
      expect(Buffer.compare(await readFile(path.join(models, name ?? '')), bytes)).toBe(0);
    } finally {
      await plain.close();
    }
  });
});
