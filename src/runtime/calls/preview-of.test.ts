import { describe, expect, it } from 'vitest';
import { shellTool } from '../../tools/shell/shell-tool.js';
import { writeFileTool } from '../../tools/builtin/write-file.js';
import { previewOf } from './preview-of.js';

describe('previewOf: what a person reads before deciding', () => {
  it('shows a shell command that hides itself behind \\r and an erase-line escape, escaped', () => {
    const preview = previewOf(shellTool, { command: 'touch X #\r\x1b[2KAllow Run: ls -la' });
    expect(preview).toBe('Run: touch X #\\r\\x1b[2KAllow Run: ls -la');
    expect(preview).not.toContain('\x1b');
    expect(preview).not.toContain('\r');
  });

  it('keeps a multi-line command on one line, each newline shown', () => {
    expect(previewOf(shellTool, { command: 'git status\nrm -rf /' })).toBe(
      'Run: git status\\nrm -rf /',
    );
  });

  it('shows a write_file path reversed by a bidi override as it is', () => {
    const preview = previewOf(writeFileTool, { path: 'notes\u202etxt.sh', content: 'x' });
    expect(preview).toBe('Write 1 bytes to notes\\u202etxt.sh');
  });

  it('escapes a tool without a preview of its own (its name and arguments)', () => {
    expect(previewOf({ name: 'remote__send' }, { to: 'a\u2066b', n: 2 })).toBe(
      'remote__send {to: "a\\u2066b", n: 2}',
    );
  });
});
