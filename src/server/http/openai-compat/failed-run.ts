import type { RunResponse } from '../../run-service-types.js';
import type { CadreOutcome } from './completion-shapes.js';
import { openAiErrorType, type OpenAiErrorCode, type OpenAiErrorType } from './openai-errors.js';

/** A failed run in OpenAI's error shape, with the run behind it in `error.cadre`. */
export interface FailedRunBody {
  error: {
    message: string;
    type: OpenAiErrorType;
    param: null;
    code: OpenAiErrorCode;
    cadre: CadreOutcome & { errorCode: string };
  };
}

/**
 * The status and body for a run that failed: OpenAI, AI SDK and LangChain
 * callers raise on an error status, where a 200 with the failure as the
 * answer would pass for a reply. The status follows the cause: the model
 * failing or unreachable is the upstream's fault (502), a server without a
 * usable model is unavailable (503), a run out of time 504, a cancelled
 * run 409, a call the policy refused 403; anything else 500.
 *
 * None is worth a client's retry: the run is stored and its model calls were
 * already retried, so the same request again would start the agent over in a
 * new thread. OpenAI's SDKs retry 408, 409, 429 and 5xx unless `x-should-retry`
 * says otherwise.
 */
export function failedRun(
  response: RunResponse,
  cadre: CadreOutcome,
): { status: number; headers: Record<string, string>; body: FailedRunBody } {
  const errorCode =
    response.status === 'cancelled' ? 'cancelled' : (response.errorCode ?? 'internal');
  const [status, code] = statusOf(errorCode);
  const said = response.status === 'cancelled' ? 'was cancelled' : `failed: ${response.summary}`;
  return {
    status,
    headers: { 'x-should-retry': 'false' },
    body: {
      error: {
        message: `Run ${response.runId} ${said}`,
        type: openAiErrorType(status),
        param: null,
        code,
        cadre: { ...cadre, errorCode },
      },
    },
  };
}

function statusOf(errorCode: string): [number, OpenAiErrorCode] {
  switch (errorCode) {
    case 'model_error':
      return [502, 'model_error'];
    case 'config_error':
      return [503, 'config_error'];
    case 'timeout':
      return [504, 'timeout'];
    case 'cancelled':
      return [409, 'cancelled'];
    case 'policy_error':
      return [403, 'policy_error'];
    default:
      return [500, 'run_failed'];
  }
}
