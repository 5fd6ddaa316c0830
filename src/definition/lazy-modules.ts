import { createRequire } from 'node:module';
import type { Options } from 'ajv';
import type * as AjvCoreModule from 'ajv/dist/core.js';
import type * as Yaml from 'yaml';

/**
 * Ajv and yaml are loaded on first use, synchronously (the in-code
 * validation path is sync), so importing the runtime never pays for them.
 */
const load = createRequire(import.meta.url);

export type YamlModule = typeof Yaml;
export type AjvConstructor = new (options: Options) => AjvCoreModule.default;

export const requireYaml = (): YamlModule => load('yaml') as YamlModule;

const AJV_MODULES = {
  '2020-12': 'ajv/dist/2020',
  '2019-09': 'ajv/dist/2019',
  'draft-07': 'ajv',
} as const;

export const requireAjv = (draft: keyof typeof AJV_MODULES): AjvConstructor =>
  load(AJV_MODULES[draft]) as AjvConstructor;
