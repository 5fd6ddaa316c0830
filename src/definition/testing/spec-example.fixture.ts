import { SchemaRegistry } from '../schema-registry.js';

/** The spec's §4 example, verbatim apart from the elided prompt text. */
export const CODEBASE_INVESTIGATOR_YAML = `name: codebase_investigator
displayName: Codebase Investigator Agent
description: >
  The specialized tool for codebase analysis, architectural mapping, and
  understanding system-wide dependencies.

inputConfig:
  inputs:
    objective:
      description: A comprehensive and detailed description of the user's ultimate goal.
      type: string
      required: true

outputConfig:
  outputName: report
  description: The final investigation report as a JSON object.
  # In a real implementation, this would reference a defined Zod or JSON schema.
  schema: "CodebaseInvestigationReportSchema"

promptConfig:
  query: |
    Your task is to do a deep investigation of the codebase to solve for the following user objective:
    <objective>
    \${objective}
    </objective>
  systemPrompt: |
    You are **Codebase Investigator**, a hyper-specialized AI agent...

modelConfig:
  model: "gemini-1.5-pro-latest"
  temp: 0.1
  thinkingBudget: -1

toolConfig:
  tools:
    - ls
    - read_file
    - glob
    - grep

runConfig:
  max_time_minutes: 5
  max_turns: 15
`;

export const REPORT_SCHEMA = {
  type: 'object',
  properties: { summary: { type: 'string' }, files: { type: 'array', items: { type: 'string' } } },
  required: ['summary'],
};

/** A registry holding the example's schema name. */
export const registry = (): SchemaRegistry =>
  new SchemaRegistry().register('CodebaseInvestigationReportSchema', REPORT_SCHEMA);
