import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDefinition } from './load-definition.js';

let dir: string;
beforeAll(async () => {
  // Under the temp folder: no node_modules anywhere above, as a fresh project run by a global cadre.
  dir = await mkdtemp(join(tmpdir(), 'cadre-ts-agent-'));
  await writeFile(
    join(dir, 'triage.ts'),
    [
      "import { z } from 'zod';",
      "import { defineAgent } from 'cadre';",
      '',
      'export default defineAgent({',
      "  name: 'triage',",
      "  description: 'Labels a bug report.',",
      "  outputConfig: { outputName: 'label', schema: z.object({ severity: z.enum(['low', 'high']) }) },",
      '  processOutput: (label) => `severity: ${label.severity}`,',
      "  promptConfig: { systemPrompt: 'You triage bug reports.' },",
      '  toolConfig: { tools: [] },',
      '});',
      '',
    ].join('\n'),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a TypeScript agent in a project without node_modules', () => {
  it("loads the README's agent: 'zod' and 'cadre' resolve to Cadre's own", async () => {
    const { definition } = await loadDefinition(join(dir, 'triage.ts'), { cwd: dir });
    expect(definition.name).toBe('triage');
    // The schema is the Zod one the file built with Cadre's zod.
    expect(definition.outputConfig?.schema).toMatchObject({ kind: 'zod' });
  });
});
