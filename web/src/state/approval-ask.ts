/** How the server introduces the calls of a run that waits for approval (`approval-message.ts`). */
export const APPROVAL_ASK = 'I need your approval to:';

/** An "I need your approval" message: the model's own words, and the calls it asks about. */
export interface ApprovalAsk {
  /** What the model said before calling (empty when it said nothing). */
  said: string;
  /** The previews of the calls, one a line ("Send "Lunch" to bob@…"). */
  calls: string[];
}

/** True for a message written when a run paused for approval. */
export function isApprovalAsk(content: string): boolean {
  return content.startsWith(APPROVAL_ASK) || content.includes(`\n\n${APPROVAL_ASK}\n`);
}

/** Splits such a message; undefined for any other message. */
export function approvalAsk(content: string): ApprovalAsk | undefined {
  if (!isApprovalAsk(content)) return undefined;
  const at = content.startsWith(APPROVAL_ASK) ? 0 : content.lastIndexOf(`\n\n${APPROVAL_ASK}\n`);
  const said = content.slice(0, at).trim();
  const calls = content
    .slice(at)
    .trim()
    .slice(APPROVAL_ASK.length)
    .split('\n')
    .flatMap((line) => (line.startsWith('- ') ? [line.slice(2)] : []));
  return { said, calls };
}
