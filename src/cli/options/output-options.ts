import { Option } from 'commander';

/** How a command reports: JSON instead of text, no progress, a recording. */

/** `--json` */
export interface JsonFlag {
  json?: boolean;
}
export const jsonOption = (description: string): Option => new Option('--json', description);

/** `-q, --quiet` */
export interface QuietFlag {
  quiet?: boolean;
}
export const quietOption = (): Option => new Option('-q, --quiet', 'no progress output');

/** `--record <file>` */
export interface RecordFlag {
  /** Write the run's trajectory here (JSON). */
  record?: string;
}
export const recordOption = (description: string): Option =>
  new Option('--record <file>', description);
