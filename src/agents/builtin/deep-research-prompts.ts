/** How one sub-query ended, as the synthesis prompt reports it. */
export type SubQueryOutcome =
  | { id: number; query: string; status: 'completed'; answer: string; recovered_from?: string }
  | { id: number; query: string; status: 'failed'; error: string; timed_out: boolean };

export function decompositionInstruction(maxSubQueries: number): string {
  return [
    'You plan research. Split the question you are given into at most',
    `${maxSubQueries} focused sub-queries that can be researched independently and`,
    'that together answer it. Each must make sense on its own, without the others.',
    'Reply with only a JSON array of strings, for example ["first sub-query", "second sub-query"].',
  ].join(' ');
}

/** The sub-query agent's system prompt. No `${...}`: the runtime fills such placeholders from inputs. */
export const SUB_QUERY_INSTRUCTION =
  'You are a research assistant. Answer the question you are given accurately and concisely, ' +
  'with the key facts and figures. Say plainly what you do not know.';

export const SYNTHESIS_INSTRUCTION =
  'You write the final answer of a research task. Combine the findings of the sub-queries ' +
  'below into one clear, well organised answer to the original question. Resolve ' +
  'contradictions where you can; where a sub-query failed, say what is missing.';

export function synthesisInput(question: string, outcomes: readonly SubQueryOutcome[]): string {
  const findings = outcomes.map((o) => `### ${o.id + 1}. ${o.query}\n${findingText(o)}`);
  return `Original question: ${question}\n\nFindings:\n\n${findings.join('\n\n')}`;
}

/** Without a synthesis the findings themselves are the answer. */
export function findingsDigest(outcomes: readonly SubQueryOutcome[]): string {
  return outcomes.map((o) => `- ${o.query}: ${findingText(o)}`).join('\n');
}

function findingText(outcome: SubQueryOutcome): string {
  switch (outcome.status) {
    case 'completed':
      return outcome.answer;
    case 'failed':
      return `(no answer: ${outcome.error})`;
    default:
      return outcome satisfies never;
  }
}
