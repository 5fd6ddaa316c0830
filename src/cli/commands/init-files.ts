/** What `cadre init` writes, by path: small, commented, and runnable as they are. */
export const STARTER_FILES: Readonly<Record<string, string>> = {
  'agents/helper.yaml': `# An agent: cadre run helper "your question". \`cadre validate agents\` checks it.
name: helper
description: Answers questions about the files in this folder.
promptConfig:
  systemPrompt: |
    You help with the files in this folder. Read what you need before answering,
    and call word_count when asked how long a text is.
modelConfig: { model: gemini-2.5-flash } # --model or CADRE_MODEL beats it
toolConfig:
  tools: [ls, read_file, grep, word_count] # word_count is tools/word-count.tool.ts
runConfig: { max_turns: 10, max_time_minutes: 5 }
`,
  'tools/word-count.tool.ts': `// A code tool: any agent of this project can name it under toolConfig.tools.
import { defineTool } from 'cadre';

export default defineTool<{ text: string }>({
  name: 'word_count',
  description: 'Counts the words of a text.',
  // JSON Schema of the arguments; a call that does not match goes back to the model.
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text to count.' } },
    required: ['text'],
  },
  // true would make every call wait for a person (or --approve word_count, or a policy rule).
  sideEffect: false,
  async execute({ text }, { signal }) {
    signal.throwIfAborted(); // pass \`signal\` on to fetch or child processes
    return { words: text.split(/\\s+/).filter(Boolean).length };
  },
});
`,
  'policy.yaml': `# Rules for tool calls, first match wins: --policy policy.yaml, or CADRE_POLICY=policy.yaml.
rules:
  - tool: shell
    when: { command: { commands: ['git status:*', 'git diff:*', 'git log:*'] } }
    decision: allow
    reason: Read-only git runs without asking.
  - tool: shell
    when: { command: { commands: ['rm:*', 'git push:*'] } }
    decision: deny
    reason: Never delete or push.
  - tool: write_file
    when: { path: '.env*' }
    decision: deny
    reason: Secrets stay as they are.
`,
};
