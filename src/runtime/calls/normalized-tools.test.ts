import { expect, test } from 'vitest';
import { TOOL_NORMALIZERS } from '../../policy/normalize-call.js';
import { NORMALIZED_TOOLS } from './normalized-tools.js';

test('the names a plain read is told apart by are the tools the gate normalises', () => {
  expect(new Set(Object.keys(TOOL_NORMALIZERS))).toEqual(NORMALIZED_TOOLS);
});
