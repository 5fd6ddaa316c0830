import { formatUsd } from '../cost/prices.js';
import type { RunResult } from '../contracts/run-result.js';
import type { CadreEvent } from '../events/types.js';
import { todosOf } from '../tools/todo/todo-event.js';
import type { TodoItem, TodoStatus } from '../contracts/todo-item.js';
import type { Style } from './style.js';
import { escapeInvisible } from '../util/visible-text.js';

/**
 * Live progress on stderr: turns, each tool call with one-line args,
 * thoughts dimmed, elapsed time, the plan when it changes. Subagents are
 * indented by depth.
 */
export function createProgressPrinter(
  write: (text: string) => void,
  style: Style,
): (event: CadreEvent) => void {
  const started = performance.now();
  // The plan each execution showed last: a todo_write that restates it prints nothing.
  const plans = new Map<string, string>();
  let openLine: 'thought' | 'text' | undefined;
  const elapsed = (): string => style.dim(`${((performance.now() - started) / 1000).toFixed(1)}s`);
  const line = (event: CadreEvent, text: string): void => {
    if (openLine) write('\n');
    openLine = undefined;
    write(`${'  '.repeat(event.depth)}${text}\n`);
  };
  return (raw) => {
    // Messages carry arguments, paths, errors and the model's thoughts: a
    // control character or a bidi override in them is shown, never acted on.
    const event = { ...raw, message: escapeInvisible(raw.message) };
    const known = raw;
    switch (known.type) {
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
        write(style.dim(escapeInvisible(raw.message.replaceAll('\n', ' '))));
        break;
      case 'tool_call':
        line(event, `  ${style.cyan('→')} ${event.message}`);
        break;
      case 'tool_result':
        line(
          event,
          `  ${known.data.ok ? style.green('✓') : style.red('✗')} ${event.message} ${style.dim(`${Math.round(Number(known.data.durationMs ?? 0))} ms`)}`,
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
      case 'todos_updated': {
        const todos = todosOf(event.data);
        if (!todos) break;
        const plan = todos.map((todo) => `${todo.status} ${todo.content}`).join('\n');
        if (plans.get(event.executionId) === plan) break;
        plans.set(event.executionId, plan);
        line(event, `  ${style.cyan('☰')} ${event.message}`);
        for (const todo of todos) line(event, `    ${todoLine(todo, style)}`);
        break;
      }
      case 'final_result':
        line(event, `${style.bold('■')} ${event.message} ${elapsed()}${spent(known.data.result)}`);
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

/** ` · 1,234 tokens · $0.0031` from a result, as far as it is known (a replayed one may lack it). */
function spent(result: Partial<RunResult> | undefined): string {
  if (typeof result !== 'object' || result === null) return '';
  const { usage, cost_usd: cost } = result;
  const tokens = usage?.totalTokens ? ` · ${usage.totalTokens.toLocaleString('en-US')} tokens` : '';
  return `${tokens}${typeof cost === 'number' ? ` · ${formatUsd(cost)}` : ''}`;
}

/** `☐ pending`, `▶ in progress`, `☑ completed`, `☒ cancelled`: one line per item. */
export function todoLine(todo: TodoItem, style: Style): string {
  const content = escapeInvisible(todo.content);
  return `${marker(todo.status, style)} ${todo.status === 'cancelled' ? style.dim(content) : content}`;
}

function marker(status: TodoStatus, style: Style): string {
  switch (status) {
    case 'pending':
      return '☐';
    case 'in_progress':
      return style.cyan('▶');
    case 'completed':
      return style.green('☑');
    case 'cancelled':
      return style.dim('☒');
    default:
      return status satisfies never;
  }
}
