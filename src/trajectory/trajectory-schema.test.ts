import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { parseTrajectory } from './load-trajectory.js';
import { recordNotifier } from './testing/test-support.js';
import { trajectoryJsonSchema, type trajectorySchemaV1 } from './trajectory-schema.js';
import type { Trajectory } from './types.js';

const shipped = join(dirname(fileURLToPath(import.meta.url)), '../../spec/trajectory.schema.json');

// Compile-time: everything the recorder can produce is allowed by the schema.
type Writable<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer U)[]
    ? Writable<U>[]
    : T extends object
      ? { -readonly [K in keyof T]: Writable<T[K]> }
      : T;
const _producedFitsSchema = (t: Writable<Trajectory>): z.input<typeof trajectorySchemaV1> => t;

describe('the published trajectory JSON Schema', () => {
  it('is in sync with the Zod schema (regenerate: CADRE_WRITE_SCHEMA=1 npx vitest run src/trajectory/trajectory-schema.test.ts)', async () => {
    const generated = `${JSON.stringify(trajectoryJsonSchema(), null, 2)}\n`;
    if (process.env.CADRE_WRITE_SCHEMA === '1') {
      const prettier = await import('prettier');
      const options = (await prettier.resolveConfig(shipped)) ?? {};
      await writeFile(shipped, await prettier.format(generated, { ...options, parser: 'json' }));
    }
    expect(JSON.parse(await readFile(shipped, 'utf8'))).toEqual(JSON.parse(generated));
  });

  it('accepts a recorded trajectory (scripted model behaviour) and rejects a broken one', async () => {
    const { trajectory } = await recordNotifier();
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(
      trajectoryJsonSchema(),
    );
    const json = JSON.parse(JSON.stringify(trajectory)) as Record<string, unknown>;
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...json, tool_steps: [{ tool: 'x' }] })).toBe(false);
    expect(validate({ ...json, schema_version: 2 })).toBe(false);
  });

  it('reads a decision recorded as `defer`, the word before `pause`, as `pause`', async () => {
    const { trajectory } = await recordNotifier();
    const call = { call_id: 'c1', tool: 'notify', execution_id: 'e1' };
    const older = { ...trajectory, approvals: [{ ...call, decision: { kind: 'defer' } }] };
    const read = await parseTrajectory(JSON.parse(JSON.stringify(older)));
    expect(read.approvals).toEqual([{ ...call, decision: { kind: 'pause' } }]);
  });
});
