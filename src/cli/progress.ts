import type { CadreEvent } from '../events/types.js';
import type { Style } from './style.js';

/**
 * Live progress on stderr: turns, each tool call with one-line args,
 * thoughts dimmed, elapsed time. Subagents are indented by depth.
 */
export function createProgressPrinter(
  write: (text: string) => void,
  style: Style,
): (event: CadreEvent) => void {
  const started = performance.now();
  let openLine: 'thought' | 'text' | undefined;
  const elapsed = (): string => style.dim(`${((performance.now() - started) / 1000).toFixed(1)}s`);
  const line = (event: CadreEvent, text: string): void => {
    if (openLine) write('\n');
    openLine = undefined;
    write(`${'  '.repeat(event.depth)}${text}\n`);
  };
  return (event) => {
    switch (event.type) {
      case 'run_started':
        line(event, `${style.bold('▶')} ${event.message}`);
        break;
      case 'turn_started':
        line(event, `${style.cyan('•')} ${event.message} ${elapsed()}`);
        break;
      case 'thought_delta':
        if (openLine !== 'thought') {
          if (openLine) write('\n');
          write(`${'  '.repeat(event.depth)}  ${style.dim('thinking: ')}`);
        }
        openLine = 'thought';
        write(style.dim(event.message.replaceAll('\n', ' ')));
        break;
      case 'tool_call':
        line(event, `  ${style.cyan('→')} ${event.message}`);
        break;
      case 'tool_result':
        line(
          event,
          `  ${event.data.ok ? style.green('✓') : style.red('✗')} ${event.message} ${style.dim(`${Math.round(Number(event.data.durationMs ?? 0))} ms`)}`,
        );
        break;
      case 'approval_required':
      case 'recovery_started':
      case 'model_retry':
      case 'warning':
        line(event, `  ${style.yellow('!')} ${event.message}`);
        break;
      case 'error':
        line(event, `  ${style.red('✗')} ${event.message}`);
        break;
      case 'final_result':
        line(event, `${style.bold('■')} ${event.message} ${elapsed()}`);
        break;
      case 'text_delta':
      case 'usage':
      case 'output_emitted':
      case 'approval_resolved':
      case 'subagent_started':
      case 'subagent_finished':
        // The answer goes to stdout; the rest is for other consumers.
        break;
      default:
        // Code agents' own events (routing, sub-queries, phases): their message is the status.
        line(event, `  ${style.dim('·')} ${event.message}`);
        break;
    }
  };
}
