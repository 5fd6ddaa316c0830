import { EXIT, type CliIO } from '../cli-io.js';

/** A command as completion needs it: its name, its flags, and its own subcommands. */
export interface CompletionCommand {
  name: string;
  flags: string[];
  subcommands: CompletionCommand[];
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/**
 * `cadre completion bash|zsh|fish`: prints a completion script for the
 * commands, subcommands and flags (agent names too, for run and chat, from
 * `cadre agents`). Install: `cadre completion bash >> ~/.bashrc`, or
 * `cadre completion fish > ~/.config/fish/completions/cadre.fish`.
 */
export function completionCommand(
  shell: string,
  commands: readonly CompletionCommand[],
  io: CliIO,
): number {
  if (!isShell(shell)) {
    io.stderr(`error unknown shell "${shell}": use ${SHELLS.join(', ')}\n`);
    return EXIT.failed;
  }
  io.stdout(completionScript(shell, commands));
  return EXIT.ok;
}

const isShell = (value: string): value is Shell => (SHELLS as readonly string[]).includes(value);

export function completionScript(shell: Shell, commands: readonly CompletionCommand[]): string {
  switch (shell) {
    case 'bash':
      return bashScript(commands);
    case 'zsh':
      // zsh runs the bash script through bashcompinit: one script to keep right.
      return `#compdef cadre\nautoload -U +X bashcompinit && bashcompinit\n${bashScript(commands)}`;
    case 'fish':
      return fishScript(commands);
    default:
      return shell satisfies never;
  }
}

/** Agent names for `run` and `chat`, read from `cadre agents` at completion time. */
const AGENT_NAMES = `cadre agents 2>/dev/null | grep -E '^[A-Za-z_][A-Za-z0-9_-]*  (project|user|builtin)' | cut -d' ' -f1`;

function bashScript(commands: readonly CompletionCommand[]): string {
  const cases = commands
    .map((command) => {
      const words = [...command.subcommands.map((sub) => sub.name), ...command.flags].join(' ');
      const agents = command.name === 'run' || command.name === 'chat' ? ` $(${AGENT_NAMES})` : '';
      const nested = command.subcommands
        .map((sub) => `        ${sub.name}) words="${sub.flags.join(' ')}" ;;`)
        .join('\n');
      const inner = nested ? `\n      case "\${COMP_WORDS[2]}" in\n${nested}\n      esac` : '';
      return `    ${command.name})\n      words="${words}${agents}"${inner}\n      ;;`;
    })
    .join('\n');
  return `# cadre completion for bash: cadre completion bash >> ~/.bashrc
_cadre() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" words
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${commands.map((c) => c.name).join(' ')} --help --version" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -- "$cur"))
}
complete -o filenames -F _cadre cadre
`;
}

function fishScript(commands: readonly CompletionCommand[]): string {
  const top = commands.map((command) => command.name).join(' ');
  const lines = [
    '# cadre completion for fish: cadre completion fish > ~/.config/fish/completions/cadre.fish',
    `complete -c cadre -n "not __fish_seen_subcommand_from ${top}" -f -a "${top}"`,
  ];
  for (const command of commands) {
    const inCommand = `__fish_seen_subcommand_from ${command.name}`;
    for (const flag of command.flags)
      lines.push(`complete -c cadre -n "${inCommand}" -l ${flag.replace(/^--/, '')}`);
    if (command.subcommands.length > 0)
      lines.push(
        `complete -c cadre -n "${inCommand}" -f -a "${command.subcommands.map((sub) => sub.name).join(' ')}"`,
      );
    if (command.name === 'run' || command.name === 'chat')
      lines.push(`complete -c cadre -n "${inCommand}" -a "(${AGENT_NAMES})"`);
  }
  return `${lines.join('\n')}\n`;
}
