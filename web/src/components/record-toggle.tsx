interface Props {
  checked: boolean;
  onChange(checked: boolean): void;
}

/** Opt-in: a recording keeps prompts and tool outputs, so only runs asked for are kept. */
export function RecordToggle({ checked, onChange }: Props) {
  return (
    <div className="record-toggle">
      <input
        id="record-run"
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby="record-run-help"
      />
      <label htmlFor="record-run">Record runs</label>
      <span id="record-run-help" className="muted">
        Step through a recorded run and fork it from any step.
      </span>
    </div>
  );
}
