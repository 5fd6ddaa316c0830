import path from 'node:path';
import {
  ADK_FIELDS,
  ADK_FILE_NAMES,
  ADK_ONLY_FIELDS,
  CADRE_SPELLING,
  isAdkClass,
} from './adk-fields.js';
import { isAdkConfig } from './adk-to-raw.js';
import { closestMatch } from './did-you-mean.js';
import { rawDefinitionShape } from './raw-definition-schema.js';
import type { SourceNote } from './translating-mapper.js';

/** Which format a YAML file is read as, and what in the file decided it. */
export interface YamlFormat {
  kind: 'adk' | 'cadre';
  /** `it has "instruction"`, `the file name root_agent.yaml`… */
  why: string;
}

const CADRE_FIELDS: ReadonlySet<string> = new Set(Object.keys(rawDefinitionShape));
/** Cadre fields an ADK config cannot have (name and description belong to both). */
const CADRE_ONLY_FIELDS = [...CADRE_FIELDS].filter(
  (key) => !ADK_FIELDS.has(key) && key !== '$schema',
);

/**
 * ADK when isAdkConfig says so (instruction, agent_class or sub_agents and
 * no Cadre section); else Cadre when a Cadre-only field is there; else ADK
 * for the file name root_agent.yaml or any ADK-only field; else Cadre. The
 * contents outweigh the name.
 */
export function pickYamlFormat(file: string, data: Record<string, unknown>): YamlFormat {
  const keys = Object.keys(data);
  const adkKey = keys.find((key) => ADK_ONLY_FIELDS.has(key));
  const cadreKey = keys.find((key) => CADRE_ONLY_FIELDS.includes(key));
  const fileName = path.basename(file);
  if (isAdkConfig(data) && adkKey) return { kind: 'adk', why: `it has "${adkKey}"` };
  if (cadreKey) return { kind: 'cadre', why: `it has "${cadreKey}"` };
  if (ADK_FILE_NAMES.has(fileName)) return { kind: 'adk', why: `the file name ${fileName}` };
  if (adkKey) return { kind: 'adk', why: `it has "${adkKey}"` };
  return { kind: 'cadre', why: 'no field in it is ADK-only, such as instruction or agent_class' };
}

export interface FormatMismatch {
  notes: SourceNote[];
  /** Fields of the other format, left out of a Cadre definition so they are reported once. */
  dropped: string[];
}

const said = (format: YamlFormat): string =>
  `read as ${format.kind === 'adk' ? 'an ADK agent config' : 'a Cadre definition'} (${format.why})`;

function adkMismatch(format: YamlFormat, data: Record<string, unknown>): SourceNote[] {
  // A custom agent class has fields of its own.
  if (!isAdkClass(data.agent_class)) return [];
  return Object.keys(data).flatMap((key): SourceNote[] => {
    // `$schema` is for editors, whatever the format.
    if (ADK_FIELDS.has(key) || key === '$schema') return [];
    if (CADRE_FIELDS.has(key))
      return [
        {
          path: [key],
          message: `${said(format)}; "${key}" is a Cadre field, not an ADK one (a file with promptConfig, toolConfig, modelConfig or runConfig is read as Cadre)`,
          severity: 'error',
        },
      ];
    const near = closestMatch(key, ADK_FIELDS);
    // A misspelt field loses what it says (ADK refuses it too); other extras are only ignored.
    return [
      near === undefined
        ? {
            path: [key],
            message: `${said(format)}; "${key}" is not an ADK agent field; ignored`,
            severity: 'warning',
          }
        : {
            path: [key],
            message: `${said(format)}; "${key}" is not an ADK agent field; did you mean "${near}"?`,
            severity: 'error',
          },
    ];
  });
}

/**
 * Fields that belong to the format the file was not read as: each one an
 * error saying which format was assumed and why, instead of a bare
 * "unknown field".
 */
export function formatMismatch(format: YamlFormat, data: Record<string, unknown>): FormatMismatch {
  if (format.kind === 'adk') return { notes: adkMismatch(format, data), dropped: [] };
  const foreign = Object.keys(data).filter((key) => !CADRE_FIELDS.has(key) && ADK_FIELDS.has(key));
  return {
    notes: foreign.map((key) => {
      const cadre = CADRE_SPELLING[key];
      return {
        path: [key],
        message: `${said(format)}; "${key}" is ${
          ADK_ONLY_FIELDS.has(key)
            ? 'an ADK agent config field, not a Cadre one'
            : 'not a Cadre field'
        }${cadre ? ` (Cadre writes ${cadre})` : ''}`,
        severity: 'error',
      };
    }),
    dropped: foreign,
  };
}
