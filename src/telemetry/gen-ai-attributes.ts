/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions, spelled
 * out here: the incubating semconv entry is large, and these names moved to
 * their own repository, so the package's constants are deprecated.
 */
export const GenAI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  reasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  errorType: 'error.type',
} as const;

export type GenAIOperation = 'invoke_agent' | 'chat' | 'execute_tool';

/** Cadre's own attributes and span events (no convention covers them). */
export const Cadre = {
  runId: 'cadre.run.id',
  executionId: 'cadre.execution.id',
  terminateReason: 'cadre.terminate_reason',
  recoveredFrom: 'cadre.recovered_from',
  resumed: 'cadre.resumed',
  turn: 'cadre.turn',
  grace: 'cadre.grace',
  /** The run paused for a person's approval: the span ends here, the run goes on later. */
  paused: 'cadre.paused',
  /** The span's work was cut off (cancelled, timed out, or its execution ended first). */
  interrupted: 'cadre.interrupted',
  /** Still open when telemetry shut down (a run handed over or abandoned). */
  incomplete: 'cadre.incomplete',
  approvalReason: 'cadre.approval.reason',
  approvalPreview: 'cadre.approval.preview',
  approvalDecision: 'cadre.approval.decision',
  approvalRequested: 'cadre.approval.requested',
  approvalDecided: 'cadre.approval.decided',
} as const;

/** Cadre's provider names → the convention's well-known values, where one exists. */
export function providerName(provider: string): string {
  return provider === 'gemini' ? 'gcp.gemini' : provider;
}
