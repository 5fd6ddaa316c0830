import { defineTool } from '../../tools/types.js';

/** The tool a loop's agent calls to end the loop (ADK's `exit_loop`). */
export const EXIT_LOOP = 'exit_loop';

/**
 * Ends the loop the calling agent runs in, after the current round: the
 * workflow sees the call in the agent's result. Changes nothing outside
 * the run, so it needs no approval.
 */
export const exitLoopTool = defineTool<{ reason?: string }>({
  name: EXIT_LOOP,
  description:
    'Call this when the loop you are part of should stop (the work is done or cannot go on). ' +
    'The current round finishes, then the loop ends.',
  inputSchema: {
    type: 'object',
    properties: {
      reason: { type: 'string', description: 'Why the loop should stop, in a few words.' },
    },
    additionalProperties: false,
  },
  sideEffect: false,
  preview: (args) => `End the loop${args.reason ? `: ${args.reason}` : ''}`,
  execute: (args, ctx) => {
    ctx.emit({
      type: 'loop_exit_requested',
      message: `Loop exit requested${args.reason ? `: ${args.reason}` : ''}`,
      data: { ...(args.reason ? { reason: args.reason } : {}) },
    });
    return Promise.resolve({ exiting: true });
  },
});
