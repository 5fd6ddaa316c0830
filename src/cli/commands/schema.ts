import { definitionJsonSchema } from '../../definition/definition-json-schema.js';
import { EXIT, type CliIO } from '../cli-io.js';

/** `cadre schema`: the JSON Schema of the definition format, for editors (`# yaml-language-server: $schema=`). */
export function schemaCommand(io: CliIO): number {
  io.stdout(`${JSON.stringify(definitionJsonSchema(), null, 2)}\n`);
  return EXIT.ok;
}
