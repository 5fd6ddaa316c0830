import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../model/scripted-model.js';
import { run } from '../../runtime/run-verbs.js';
import { builtinAgentEntries } from './index.js';

describe('builtinAgentEntries', () => {
  it('offers deep_research and react as code agents, a fresh instance per run', () => {
    const entries = builtinAgentEntries();
    expect(entries.map((e) => e.kind === 'code' && e.name)).toEqual(['deep_research', 'react']);
    for (const entry of entries) {
      if (entry.kind !== 'code') throw new Error('expected a code agent');
      const agent = entry.create();
      expect(agent.name).toBe(entry.name);
      expect(agent.description).toBe(entry.description);
      expect(entry.create()).not.toBe(agent);
    }
  });

  it('gives react only the read-only file tools', async () => {
    const react = builtinAgentEntries().find((e) => e.kind === 'code' && e.name === 'react');
    if (react?.kind !== 'code') throw new Error('react missing');
    const model = new ScriptedModel([{ parts: [{ text: 'Final Answer: hi' }] }]);
    await run(react.create(), { inputs: { prompt: 'hi' }, model });
    const offered = [...(model.requests[0]?.systemInstruction ?? '').matchAll(/^- (\w+):/gm)].map(
      (m) => m[1],
    );
    expect(offered.sort()).toEqual(['glob', 'grep', 'ls', 'read_file']);
  });
});
