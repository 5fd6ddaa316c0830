import { readdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ScriptedModel } from '../model/scripted-model.js';
import { run } from '../agents/run-verbs.js';
import { inputsFor } from '../runtime/subagents/query-inputs.js';
import { TASK_TOOL } from '../runtime/subagents/task-tool.js';
import { availableTools } from '../tools/builtin/index.js';
import { ValidationError } from '../errors/validation-error.js';
import { loadDefinition } from './load-definition.js';
import type { LoadResult } from './load-options.js';

/**
 * Every corpus file runs to GOAL on a one-turn scripted model (it answers
 * at once): loading, placeholders, tools and workflows hold up when the
 * agent actually starts. The folder is CADRE_CORPUS_DIR, as in
 * corpus.corpus-test.ts.
 */
const CORPUS_DIR = process.env.CADRE_CORPUS_DIR;
if (!CORPUS_DIR)
  throw new Error(
    'Set CADRE_CORPUS_DIR to a folder of agent files (claude-code/, gemini-cli/, adk/).',
  );
const CORPUS = path.resolve(CORPUS_DIR);
const FILES = ['claude-code', 'gemini-cli', 'adk']
  .flatMap((kind) => readdirSync(path.join(CORPUS, kind)).map((name) => `${kind}/${name}`))
  .sort();
const tools = availableTools({});

describe('every corpus file runs (one-turn scripted model)', () => {
  test.each(FILES)('%s', async (file) => {
    const workspace = await mkdtemp(path.join(tmpdir(), 'cadre-corpus-run-'));
    const loaded = await loadDefinition(path.join(CORPUS, file), {
      cwd: CORPUS,
      knownTools: [...tools.map((tool) => tool.name), TASK_TOOL],
    }).catch((error: unknown) => error);
    // An ADK workflow copied without its sub-agent files is refused at load (corpus.corpus-test.ts).
    if (loaded instanceof ValidationError && file.startsWith('adk/')) return;
    if (loaded instanceof Error) throw loaded;
    const { definition, warnings } = loaded as LoadResult;
    // A remote (A2A) agent's card lives on the internet: tests never leave loopback, so it is
    // checked as loaded, not run (src/a2a has the protocol tests against a loopback server).
    if (definition.remote) {
      expect(definition.remote.agentCardUrl).toMatch(/^https?:\/\//);
      return;
    }
    // An ADK agent reading state an earlier agent of its workflow stores gets that state, as in its workflow.
    const state = Object.fromEntries(
      warnings.flatMap((w) => {
        const name = /^placeholder \{+([^{}?]+)\}+ names no input/.exec(w.message)?.[1];
        return name === undefined ? [] : [[name, 'stored by an earlier agent']];
      }),
    );
    const result = await run(definition, {
      model: new ScriptedModel(() => ({ parts: [{ text: 'Done.' }] })),
      tools,
      workspace,
      inputs: inputsFor({ kind: 'definition', definition }, 'Say hello.'),
      state,
    });
    expect(result.error).toBeUndefined();
    expect(result.terminate_reason).toBe('GOAL');
  });
});
