// A run's plan item: the todo tool writes it, the events carry it, displays show it.
/** Claude Code's TodoWrite statuses, plus Gemini CLI's `cancelled`. */
export const TODO_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;

export type TodoStatus = (typeof TODO_STATUSES)[number];

/** One item of a run's plan, as Cadre keeps and shows it. */
export interface TodoItem {
  id: string;
  content: string;
  status: TodoStatus;
  /** Claude Code's wording while the item runs ("Running the tests"). */
  activeForm?: string;
}
