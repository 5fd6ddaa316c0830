import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel } from '../model/scripted-model.js';
import type { AgentDefinition } from './types.js';
import { definitionHash, snapshotDefinition } from './definition-snapshot.js';
import { replayTrajectory } from '../trajectory/replay.js';
import { runRecorded } from '../trajectory/run-recorded.js';

const Notes = z.object({ bump: z.enum(['major', 'minor', 'patch']) });

const typed: AgentDefinition<z.infer<typeof Notes>> = {
  name: 'notes',
  description: 'Suggests a version bump',
  outputConfig: { outputName: 'notes', schema: { kind: 'zod', schema: Notes } },
  processOutput: (notes) => `bump: ${notes.bump}`,
  promptConfig: { systemPrompt: 'Suggest a bump.' },
  toolConfig: { tools: [] },
  source: { file: '/somewhere/notes.ts', format: 'module' },
};

describe('definition snapshots', () => {
  it('are plain JSON: Zod schemas as JSON Schema, functions listed as dropped, source kept beside', async () => {
    const snapshot = await snapshotDefinition(typed as AgentDefinition);
    expect(snapshot.dropped).toEqual(['processOutput']);
    expect(snapshot.source).toBe('/somewhere/notes.ts');
    expect(snapshot.definition).not.toHaveProperty('source');
    expect(snapshot.definition.outputConfig).toMatchObject({
      schema: {
        kind: 'json_schema',
        origin: 'zod',
        schema: { properties: { bump: { enum: ['major', 'minor', 'patch'] } } },
      },
    });
    expect(JSON.parse(JSON.stringify(snapshot.definition))).toEqual(snapshot.definition);
  });

  it('hash the same whatever the key order or the file location', async () => {
    // Same members, written in another order.
    const reordered = Object.fromEntries(Object.entries(typed).reverse());
    reordered.source = { file: '/elsewhere/notes.ts', format: 'module' };
    expect(await definitionHash(reordered as AgentDefinition)).toBe(
      await definitionHash(typed as AgentDefinition),
    );
    const changed = { ...typed, promptConfig: { systemPrompt: 'Suggest a bump!' } };
    expect(await definitionHash(changed as AgentDefinition)).not.toBe(
      await definitionHash(typed as AgentDefinition),
    );
  });

  it('replay a Zod-typed agent from its snapshot, and with its code when given the definition (scripted model behaviour)', async () => {
    const { trajectory } = await runRecorded(typed as AgentDefinition, {
      inputs: { prompt: 'fix typo' },
      model: new ScriptedModel([
        {
          parts: [{ functionCall: { name: 'complete_task', args: { notes: { bump: 'patch' } } } }],
        },
      ]),
    });
    const fromSnapshot = await replayTrajectory(trajectory);
    expect(fromSnapshot.result.output).toEqual({ bump: 'patch' });
    expect(fromSnapshot.report.divergences).toEqual([]);
    expect(fromSnapshot.report.notes[0]).toContain('processOutput');
    const withCode = await replayTrajectory(trajectory, { definition: typed as AgentDefinition });
    expect(withCode.result.final_message).toBe('bump: patch');
    expect(withCode.report.definition_changed).toBe(false);
  });
});
