import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { toProtoJson } from './proto-json.js';
import { registry, CODEBASE_INVESTIGATOR_YAML } from './testing/spec-example.fixture.js';
import type { AgentDefinition } from './types.js';
import { validateDefinitionObject } from './validate-definition.js';

const withoutSource = ({
  source: _source,
  ...rest
}: AgentDefinition): Omit<AgentDefinition, 'source'> => rest;

const example = validateDefinitionObject(parse(CODEBASE_INVESTIGATOR_YAML), {
  schemas: registry(),
}).definition;

describe('proto3 JSON', () => {
  test('uses the proto3 JSON names (lowerCamelCase of the .proto fields)', () => {
    expect(toProtoJson(example)).toEqual({
      name: 'codebase_investigator',
      displayName: 'Codebase Investigator Agent',
      description: example.description,
      inputConfig: { inputs: { objective: example.inputConfig?.inputs?.objective } },
      outputConfig: {
        outputName: 'report',
        description: example.outputConfig?.description,
        schema: 'CodebaseInvestigationReportSchema',
      },
      promptConfig: {
        query: example.promptConfig.query,
        systemPrompt: example.promptConfig.systemPrompt,
      },
      modelConfig: { model: 'gemini-1.5-pro-latest', temperature: 0.1, thinkingBudget: -1 },
      toolConfig: { tools: ['ls', 'read_file', 'glob', 'grep'] },
      runConfig: { maxTimeMinutes: 5, maxTurns: 15 },
    });
  });

  test('round-trips the spec example', () => {
    const back = validateDefinitionObject(toProtoJson(example), { schemas: registry() }).definition;
    expect(withoutSource(back)).toEqual(withoutSource(example));
  });

  test('round-trips Cadre extensions: inline schema, input schema, seed messages, outputs, onReject', () => {
    const rich = validateDefinitionObject({
      name: 'rich',
      description: 'd',
      inputConfig: { inputSchema: { type: 'object', properties: { topic: { type: 'string' } } } },
      outputConfig: {
        outputName: 'answer',
        schema: { type: 'object', properties: { text: { type: 'string' } } },
        outputs: { note: 'a note' },
      },
      promptConfig: {
        query: 'About ${topic}',
        initialMessages: [
          { role: 'user', content: 'hi' },
          { role: 'model', parts: [{ text: 'hello' }, { text: 'there' }] },
        ],
      },
      modelConfig: { model: 'openai:gpt-4.1', top_p: 0.5 },
      toolConfig: { tools: [] },
      onReject: 'fail',
    }).definition;
    expect(rich.promptConfig.initialMessages).toEqual([
      { role: 'user', parts: [{ kind: 'text', text: 'hi' }] },
      {
        role: 'model',
        parts: [
          { kind: 'text', text: 'hello' },
          { kind: 'text', text: 'there' },
        ],
      },
    ]);
    const proto = toProtoJson(rich);
    expect(typeof proto.outputConfig?.schema).toBe('string');
    expect(typeof proto.inputConfig?.inputSchema).toBe('string');
    expect(withoutSource(validateDefinitionObject(proto).definition)).toEqual(withoutSource(rich));
  });

  test("the .proto's original snake_case field names load to the same definition", () => {
    const proto = {
      name: 'codebase_investigator',
      display_name: 'Codebase Investigator Agent',
      description: example.description,
      input_config: { inputs: example.inputConfig?.inputs },
      output_config: {
        output_name: 'report',
        description: example.outputConfig?.description,
        schema: 'CodebaseInvestigationReportSchema',
      },
      prompt_config: {
        query: example.promptConfig.query,
        system_prompt: example.promptConfig.systemPrompt,
      },
      model_config: { model: 'gemini-1.5-pro-latest', temperature: 0.1, thinking_budget: -1 },
      tool_config: { tools: ['ls', 'read_file', 'glob', 'grep'] },
      run_config: { max_time_minutes: 5, max_turns: 15 },
    };
    expect(
      withoutSource(validateDefinitionObject(proto, { schemas: registry() }).definition),
    ).toEqual(withoutSource(example));
  });
});

describe('spec/agent_definition.proto', () => {
  test('declares package gemini.agent.v1 and every field toProtoJson writes', async () => {
    const text = await readFile(
      fileURLToPath(new URL('../../spec/agent_definition.proto', import.meta.url)),
      'utf8',
    );
    expect(text).toContain('package gemini.agent.v1;');
    const camel = (name: string): string =>
      name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    const fields = new Set(
      [...text.matchAll(/^\s*(?:optional |repeated )?[\w.<>, ]+ (\w+) = \d+;/gm)].map((m) =>
        camel(m[1] ?? ''),
      ),
    );
    const written = new Set<string>();
    const collect = (value: unknown, mapOfMessages = false): void => {
      if (Array.isArray(value)) return value.forEach((item) => collect(item));
      if (typeof value !== 'object' || value === null) return;
      for (const [key, inner] of Object.entries(value)) {
        if (mapOfMessages) {
          collect(inner);
          continue;
        }
        written.add(key);
        if (key !== 'outputs') collect(inner, key === 'inputs');
      }
    };
    collect(toProtoJson(example));
    collect({
      inputConfig: { inputSchema: '{}' },
      outputConfig: { outputs: {} },
      promptConfig: { initialMessages: [{ role: 'user', parts: [{ text: 'x' }] }] },
      onReject: 'fail',
      modelConfig: { topP: 1 },
    });
    expect([...written].filter((key) => !fields.has(key))).toEqual([]);
  });
});
