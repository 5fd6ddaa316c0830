import type { FunctionCallPart } from '../../model/types.js';
import { answered, type CallEnvironment, type CallOutcome } from '../calls/call-environment.js';
import { errorResponse, okResponse } from '../calls/call-responses.js';

/** complete_task: the first valid output ends the run; errors go back for self-correction. */
export function completeTask(call: FunctionCallPart, env: CallEnvironment): CallOutcome {
  const protocol = env.protocol;
  if (protocol.kind !== 'complete_task')
    return answered(errorResponse(call, 'complete_task is not available.'));
  if (env.state.completed) {
    return answered(
      errorResponse(call, 'complete_task was already called; the first call counts.'),
    );
  }
  if (!Object.hasOwn(call.args, protocol.outputName)) {
    return answered(
      errorResponse(
        call,
        `Missing required argument '${protocol.outputName}'. Call complete_task again with it.`,
      ),
    );
  }
  const check = protocol.validate(call.args[protocol.outputName]);
  if (!check.ok) {
    return answered(
      errorResponse(
        call,
        `Output validation failed: ${check.errors.join('; ')}. Fix the output and call complete_task again.`,
      ),
    );
  }
  env.state.completed = { output: check.value };
  env.emit({
    type: 'output_emitted',
    message: `Output '${protocol.outputName}' accepted`,
    data: { name: protocol.outputName },
  });
  return answered(okResponse(call, 'Output accepted. The task is complete.'));
}

/** emit_value: records one named output. */
export function emitValue(call: FunctionCallPart, env: CallEnvironment): CallOutcome {
  const { name, value } = call.args;
  const outputs = env.protocol.kind === 'answer' ? undefined : env.protocol.outputs;
  if (typeof name !== 'string' || !outputs || !Object.hasOwn(outputs, name)) {
    return answered(
      errorResponse(
        call,
        `Unknown output '${String(name)}'. Expected one of: ${Object.keys(outputs ?? {}).join(', ')}.`,
      ),
    );
  }
  if (value === undefined)
    return answered(errorResponse(call, `Missing 'value' for output '${name}'.`));
  env.state.emittedVars[name] = value;
  env.emit({ type: 'output_emitted', message: `Emitted ${name}`, data: { name, value } });
  return answered(okResponse(call, `Recorded ${name}.`));
}
