import { isScripted, scriptOf } from '../state/run-outcome.js';

/** Says, once per thread, that its replies come from a script and not from a model. */
export function ScriptedNote({ models }: { models: readonly (string | undefined)[] }) {
  const scripted = models.find(isScripted);
  if (scripted === undefined) return null;
  const file = scriptOf(scripted);
  return (
    <p className="notice notice-info scripted-note" role="note">
      <span className="notice-text">
        Scripted model{file ? ` (${file})` : ''}: the replies are canned answers played from a
        script, not written by a language model. Tools run for real once approved.
      </span>
    </p>
  );
}
