/** The hidden command `cadre -p` becomes; `cadre --help` documents `-p`. */
export const PROMPT_COMMAND = 'prompt';

const FLAGS = new Set(['-p', '--prompt']);

/**
 * `cadre -p "prompt" [flags]`, as `claude -p` and `gemini -p` are used,
 * becomes `cadre prompt [flags] -- "prompt"`: one run of the default agent.
 * Left alone when the first word names a command (its own flags are its
 * own) or when there is no prompt after the flag (commander says so).
 */
export function expandPromptFlag(
  argv: readonly string[],
  commands: readonly string[],
): readonly string[] {
  if (argv.length === 0 || commands.includes(argv[0] as string)) return argv;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') return argv;
    const inline = word.startsWith('--prompt=') ? word.slice('--prompt='.length) : undefined;
    if (inline === undefined && !FLAGS.has(word)) continue;
    const text = inline ?? argv[i + 1];
    if (text === undefined) return argv;
    const rest = [...argv.slice(0, i), ...argv.slice(i + (inline === undefined ? 2 : 1))];
    return [PROMPT_COMMAND, ...rest, '--', text];
  }
  return argv;
}
