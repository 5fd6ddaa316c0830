/**
 * Why a `git` command that matched an allowed pattern must still be refused,
 * or undefined when nothing in it turns git into something else. A pattern
 * such as `git log:*` means "read the history"; these options make the same
 * words write files (`--output`), run programs (`--ext-diff`, `-c
 * core.pager=…`, `--upload-pack`), or read outside the workspace (`-C`,
 * `--git-dir`, `--no-index /etc/passwd`). The OS sandbox is the boundary;
 * this check keeps a person from being told a dangerous call is routine.
 */
export function refuseGitOptions(words: readonly string[]): string | undefined {
  if (words[0] !== 'git') return undefined;
  let at = 1;
  // Global options come before the subcommand: only those that change nothing but display pass.
  for (; at < words.length && (words[at] ?? '').startsWith('-'); at += 1) {
    const option = words[at] ?? '';
    if (!SAFE_GLOBAL_OPTIONS.has(option)) return `git ${option} before the subcommand`;
  }
  const subcommand = words[at];
  if (subcommand === undefined) return undefined;
  if (!GIT_COMMANDS.has(subcommand)) {
    return `"git ${subcommand}" is not a git command Cadre knows (it may be an alias from the repository's config)`;
  }
  const rest = words.slice(at + 1);
  for (const word of rest) {
    if (word === '--') break;
    const reason = dangerousOption(subcommand, word);
    if (reason) return `git ${subcommand} ${reason}`;
  }
  if (rest.includes('--no-index')) {
    const outside = rest.find((word) => !word.startsWith('-') && leavesWorkspace(word));
    if (outside !== undefined) return `git ${subcommand} --no-index on ${outside}`;
  }
  return undefined;
}

/** Options that only change display or path matching. */
const SAFE_GLOBAL_OPTIONS = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
  '--version',
  '--help',
]);

/** Long options that write files, run programs or reach other repositories, for every subcommand. */
const DANGEROUS_LONG = [
  '--output',
  '--ext-diff',
  '--exec',
  '--upload-pack',
  '--receive-pack',
  '--git-dir',
  '--work-tree',
  '--separate-git-dir',
  '--template',
  '--open-files-in-pager',
  '--extcmd',
  '--tool',
  '--config',
  '--exec-path',
  '--contents',
];

/** Short options whose meaning is dangerous only for some subcommands. */
const DANGEROUS_SHORT: Readonly<Record<string, string>> = {
  grep: 'O',
  rebase: 'x',
  difftool: 'xt',
  mergetool: 't',
  clone: 'cu',
  fetch: 'u',
  pull: 'u',
  'ls-remote': 'u',
};

function dangerousOption(subcommand: string, word: string): string | undefined {
  if (word.startsWith('--')) {
    const name = word.split('=', 1)[0] ?? word;
    // git accepts any unambiguous prefix of a long option: `--out=x` is `--output=x`.
    const hit = DANGEROUS_LONG.find(
      (option) => option === name || (name.length >= 4 && option.startsWith(name)),
    );
    return hit === undefined ? undefined : hit;
  }
  if (!word.startsWith('-') || word.length < 2) return undefined;
  const letters = DANGEROUS_SHORT[subcommand] ?? '';
  // A cluster such as `-nO` carries its letters until one that takes the rest as a value.
  const hit = [...word.slice(1)].find((letter) => letters.includes(letter));
  return hit === undefined ? undefined : `-${hit}`;
}

function leavesWorkspace(path: string): boolean {
  return path.startsWith('/') || path.startsWith('~') || path.split('/').includes('..');
}

/** git's own commands; anything else is an alias or an external `git-*` program. */
const GIT_COMMANDS = new Set([
  'add',
  'am',
  'annotate',
  'apply',
  'archive',
  'bisect',
  'blame',
  'branch',
  'bundle',
  'cat-file',
  'check-attr',
  'check-ignore',
  'check-mailmap',
  'check-ref-format',
  'checkout',
  'cherry',
  'cherry-pick',
  'clean',
  'clone',
  'commit',
  'count-objects',
  'describe',
  'diff',
  'diff-files',
  'diff-index',
  'diff-tree',
  'difftool',
  'fetch',
  'for-each-ref',
  'format-patch',
  'fsck',
  'gc',
  'grep',
  'hash-object',
  'help',
  'init',
  'log',
  'ls-files',
  'ls-remote',
  'ls-tree',
  'merge',
  'merge-base',
  'mergetool',
  'mv',
  'name-rev',
  'notes',
  'pull',
  'push',
  'range-diff',
  'rebase',
  'reflog',
  'remote',
  'reset',
  'restore',
  'rev-list',
  'rev-parse',
  'revert',
  'rm',
  'shortlog',
  'show',
  'show-branch',
  'show-ref',
  'sparse-checkout',
  'stash',
  'status',
  'submodule',
  'switch',
  'tag',
  'var',
  'version',
  'whatchanged',
  'worktree',
]);
