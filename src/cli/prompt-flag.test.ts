import { describe, expect, it } from 'vitest';
import { expandPromptFlag } from './prompt-flag.js';

const COMMANDS = ['run', 'chat'];

describe('expandPromptFlag', () => {
  it('turns -p TEXT and --prompt=TEXT into the prompt command, flags kept', () => {
    expect(expandPromptFlag(['-p', 'hi there', '--model', 'm'], COMMANDS)).toEqual([
      'prompt',
      '--model',
      'm',
      '--',
      'hi there',
    ]);
    expect(expandPromptFlag(['--model', 'm', '--prompt=-x'], COMMANDS)).toEqual([
      'prompt',
      '--model',
      'm',
      '--',
      '-x',
    ]);
  });

  it("leaves a command's own -p, a missing prompt and no flag alone", () => {
    expect(expandPromptFlag(['run', 'a', '-p', 'x'], COMMANDS)).toEqual(['run', 'a', '-p', 'x']);
    expect(expandPromptFlag(['-p'], COMMANDS)).toEqual(['-p']);
    expect(expandPromptFlag(['--version'], COMMANDS)).toEqual(['--version']);
  });
});
