// A TypeScript agent: a Zod output schema gives `processOutput` a typed argument.
//   ./cadre run examples/agents/release-notes.ts --input changes="$(git log --oneline -20)"
import { z } from 'zod';
import { defineAgent } from 'cadre';

const ReleaseNotes = z.object({
  version_bump: z
    .enum(['major', 'minor', 'patch'])
    .describe('Semantic version bump these changes call for.'),
  highlights: z.array(z.string()).min(1).describe('User-facing changes, most important first.'),
  breaking_changes: z.array(z.string()).describe('Changes that need users to act; empty if none.'),
});

export default defineAgent({
  name: 'release_notes',
  displayName: 'Release Notes Writer',
  description:
    'Turns a list of commits or changes into release notes with a suggested version bump.',
  inputConfig: {
    inputs: {
      changes: {
        type: 'string',
        description: 'The changes, e.g. the output of git log --oneline.',
        required: true,
      },
    },
  },
  outputConfig: {
    outputName: 'notes',
    description: 'The release notes.',
    schema: ReleaseNotes,
  },
  processOutput: (notes) =>
    [
      `Suggested bump: ${notes.version_bump}`,
      '',
      '## Highlights',
      ...notes.highlights.map((h) => `- ${h}`),
      ...(notes.breaking_changes.length
        ? ['', '## Breaking changes', ...notes.breaking_changes.map((b) => `- ${b}`)]
        : []),
    ].join('\n'),
  promptConfig: {
    systemPrompt:
      'You write release notes for users, not for the team: say what changed for them, in plain words. Group small fixes into one line.',
    query: 'Write release notes for these changes:\n${changes}',
  },
  modelConfig: { model: 'gemini-2.5-flash', temp: 0.3 },
  toolConfig: { tools: [] },
  runConfig: { max_turns: 3 },
});
