import { describeCall, type StreamLine } from '../api/stream-line.js';
import type {
  CadreEvent,
  CadreEventOf,
  DecisionView,
  RunResponse,
  WireError,
} from '../api/wire-types.js';

export type StepState =
  'running' | 'awaiting_approval' | 'approved' | 'done' | 'failed' | 'rejected';

/** One tool call (or subagent) of a run, as the chat shows it. */
export interface ToolStep {
  key: string;
  tool: string;
  summary: string;
  state: StepState;
  depth: number;
  /** A subagent's own step: the run has an agent tree worth drawing. */
  subagent?: true;
  durationMs?: number;
  error?: string;
  /** The tool's own words for a call that waits for approval ("Send "Hi" to bob@…"). */
  preview?: string;
  /** Who approved or rejected the call, and when (known from the stored thread). */
  decision?: DecisionView;
  /** Ran unasked under the person's "always allow" ("allowed by your rule for ana@…, set 02:05"). */
  allowedBy?: string;
}

/** What a streamed run has shown so far. */
export interface RunTrace {
  runId?: string;
  status?: string;
  text: string;
  thoughts: string;
  steps: ToolStep[];
  result?: RunResponse;
  error?: WireError;
}

const settled = (s: ToolStep) =>
  s.state === 'done' || s.state === 'failed' || s.state === 'rejected';

/** A step for a call known only from its approval card (the page was reloaded since the run paused). */
export function seedStep(trace: RunTrace, key: string, tool: string, summary: string): RunTrace {
  if (trace.steps.some((s) => s.tool === tool && !settled(s))) return trace;
  const step: ToolStep = {
    key,
    tool,
    summary,
    state: 'awaiting_approval',
    depth: 0,
    preview: summary,
  };
  return { ...trace, steps: [...trace.steps, step] };
}

export const emptyTrace = (runId?: string): RunTrace => ({
  ...(runId ? { runId } : {}),
  text: '',
  thoughts: '',
  steps: [],
});

type StepPatch = Partial<ToolStep> & { key: string; tool: string };

/**
 * Updates the step with this key; when the key is unknown (a step seeded from
 * an approval card after a reload), the newest unsettled step of the tool.
 */
function upsert(steps: ToolStep[], patch: StepPatch, create: boolean): ToolStep[] {
  let index = steps.findIndex((s) => s.key === patch.key);
  if (index < 0 && !create)
    index = steps.findLastIndex((s) => s.tool === patch.tool && !settled(s));
  if (index < 0) {
    if (!create) return steps;
    return [...steps, { summary: patch.tool, state: 'running', depth: 0, ...patch }];
  }
  return steps.map((s, i) => (i === index ? { ...s, ...patch, key: s.key } : s));
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function applyEvent(trace: RunTrace, event: CadreEvent): RunTrace {
  const data = event.data;
  const tool = str(data.tool) ?? 'tool';
  const key = str(data.callId) ?? `${tool}#${trace.steps.length}`;
  const known = event;
  switch (known.type) {
    case 'tool_call': {
      const step = { key, tool, summary: describeCall(tool, data.args), depth: event.depth };
      return { ...trace, steps: upsert(trace.steps, step, true) };
    }
    case 'approval_required': {
      const preview = str(data.preview);
      const patch = {
        key,
        tool,
        state: 'awaiting_approval' as const,
        ...(preview ? { preview } : {}),
      };
      return { ...trace, steps: upsert(trace.steps, patch, false) };
    }
    case 'grant_applied':
      return {
        ...trace,
        steps: upsert(trace.steps, { key, tool, allowedBy: grantText(known) }, false),
      };
    case 'approval_resolved': {
      const state: StepState = data.decision === 'reject' ? 'rejected' : 'approved';
      return { ...trace, steps: upsert(trace.steps, { key, tool, state }, false) };
    }
    case 'tool_result': {
      const durationMs = typeof data.durationMs === 'number' ? data.durationMs : undefined;
      const patch: StepPatch = {
        key,
        tool,
        ...(durationMs === undefined ? {} : { durationMs }),
        ...(str(data.error) ? { error: str(data.error) } : {}),
      };
      // A rejected call is answered with an error; keep it shown as rejected.
      const current = trace.steps.find((s) => s.key === key);
      const state: StepState =
        current?.state === 'rejected' ? 'rejected' : data.ok === false ? 'failed' : 'done';
      return { ...trace, steps: upsert(trace.steps, { ...patch, state }, false) };
    }
    case 'subagent_started': {
      const agent = str(data.agent) ?? 'subagent';
      const id = str(data.executionId) ?? `${agent}#${trace.steps.length}`;
      const step = {
        key: id,
        tool: agent,
        summary: `Subagent ${agent}`,
        depth: event.depth,
        subagent: true as const,
      };
      return { ...trace, steps: upsert(trace.steps, step, true) };
    }
    case 'subagent_finished': {
      const agent = str(data.agent) ?? 'subagent';
      const id = str(data.executionId) ?? agent;
      const ok = data.terminate_reason === 'GOAL' || data.terminate_reason === undefined;
      return {
        ...trace,
        steps: upsert(trace.steps, { key: id, tool: agent, state: ok ? 'done' : 'failed' }, false),
      };
    }
    default:
      return trace;
  }
}

/** The grant's own words, with the time it was set in the reader's zone. */
function grantText(event: CadreEventOf<'grant_applied'>): string {
  // A stored event may come from an older writer: its grants are checked, not trusted.
  const grants = Array.isArray(event.data.grants) ? event.data.grants : [];
  const first = grants.at(0);
  const set = typeof first?.createdAt === 'string' ? new Date(first.createdAt) : undefined;
  if (grants.length !== 1 || typeof first?.recipient !== 'string' || !set) return event.message;
  const whom = first.recipient === '*' ? 'any recipient' : first.recipient;
  const time = set.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return `allowed by your rule for ${whom}, set ${time}`;
}

/** Folds one stream line into the trace (a pure reducer, so React state stays simple). */
export function applyLine(trace: RunTrace, line: StreamLine): RunTrace {
  switch (line.type) {
    case 'status':
      return { ...trace, status: line.status, ...(line.runId ? { runId: line.runId } : {}) };
    case 'delta':
      return { ...trace, text: trace.text + line.delta };
    case 'thought_delta':
      return { ...trace, thoughts: trace.thoughts + line.delta };
    case 'tool_call': {
      const key = line.callId ?? `${line.tool}#${trace.steps.length}`;
      const step = { key, tool: line.tool, summary: line.summary, depth: line.depth };
      return { ...trace, steps: upsert(trace.steps, step, true) };
    }
    case 'approval_required': {
      const key = line.callId ?? line.tool;
      const patch = {
        key,
        tool: line.tool,
        state: 'awaiting_approval' as const,
        ...(line.preview ? { preview: line.preview } : {}),
      };
      return { ...trace, steps: upsert(trace.steps, patch, false) };
    }
    case 'event':
      return { ...applyEvent(trace, line.event), runId: trace.runId ?? line.event.runId };
    case 'result':
      return {
        ...trace,
        result: line.result,
        runId: line.result.runId,
        status: line.result.status,
      };
    case 'error':
      return { ...trace, error: line.error, status: 'failed' };
  }
}
