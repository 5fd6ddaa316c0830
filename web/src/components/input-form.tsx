import { useState, type FormEvent } from 'react';
import type { AgentInputView, AgentView } from '../api/wire-types.js';
import { agentLabel } from '../state/agent-choice.js';
import { fieldKind, parseInputs, type FieldValues } from '../state/input-values.js';

interface Props {
  agent: AgentView & { inputs: AgentInputView[] };
  /** A run is streaming or this one is on its way. */
  busy: boolean;
  onSubmit(inputs: Record<string, unknown>): void;
}

/** A form built from an agent's inputConfig: one field per input, its description as help. */
export function InputForm({ agent, busy, onSubmit }: Props) {
  const [values, setValues] = useState<FieldValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (name: string, value: string | boolean) =>
    setValues((current) => ({ ...current, [name]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const parsed = parseInputs(agent.inputs, values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    onSubmit(parsed.inputs);
  };
  return (
    <form
      className="input-form card"
      onSubmit={submit}
      aria-labelledby="input-form-title"
      noValidate
    >
      <h2 id="input-form-title">Inputs for {agentLabel(agent)}</h2>
      {agent.inputs.map((field) => (
        <InputField
          key={field.name}
          field={field}
          value={values[field.name]}
          {...(errors[field.name] ? { error: errors[field.name] } : {})}
          onChange={(value) => set(field.name, value)}
        />
      ))}
      <div className="input-form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Running…' : 'Run'}
        </button>
      </div>
    </form>
  );
}

interface FieldProps {
  field: AgentInputView;
  value: string | boolean | undefined;
  error?: string | undefined;
  onChange(value: string | boolean): void;
}

const HINTS: Partial<Record<ReturnType<typeof fieldKind>, string>> = {
  list: 'One item per line.',
  json: 'JSON.',
};

function InputField({ field, value, error, onChange }: FieldProps) {
  const id = `input-${field.name}`;
  const kind = fieldKind(field.type);
  const help = [sentence(field.description), HINTS[kind]].filter(Boolean).join(' ');
  const described = [help ? `${id}-help` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const common = {
    id,
    name: field.name,
    'aria-invalid': error ? true : undefined,
    ...(described ? { 'aria-describedby': described } : {}),
  };
  const text = typeof value === 'string' ? value : '';
  const label = (
    <label htmlFor={id} className="input-label">
      {field.name}
      {field.required && <span className="required"> (required)</span>}
    </label>
  );
  return (
    <div className={`input-field input-${kind}`}>
      {kind === 'boolean' ? (
        <div className="input-check">
          <input
            {...common}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
          />
          {label}
        </div>
      ) : (
        <>
          {label}
          {kind === 'list' || kind === 'json' ? (
            <textarea
              {...common}
              rows={3}
              value={text}
              required={field.required}
              onChange={(e) => onChange(e.target.value)}
            />
          ) : (
            <input
              {...common}
              type={kind === 'text' ? 'text' : 'number'}
              {...(kind === 'integer' ? { step: 1 } : kind === 'number' ? { step: 'any' } : {})}
              value={text}
              required={field.required}
              onChange={(e) => onChange(e.target.value)}
            />
          )}
        </>
      )}
      {help && (
        <span id={`${id}-help`} className="muted input-help">
          {help}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="input-error" role="alert">
          {field.name} {error}
        </span>
      )}
    </div>
  );
}

/** A description as a sentence, so a hint can follow it. */
const sentence = (text: string | undefined): string | undefined =>
  text && !/[.!?]$/.test(text.trim()) ? `${text.trim()}.` : text;
