import type { AgentContext } from '../../contracts/agent.js';
import type { ModelRequest } from '../../model/types.js';
import { runModelTurn, type ModelTurn } from '../loop/model-turn.js';

/** One model call from a code agent, streaming its text and thoughts as events. */
export function callModelOnce(ctx: AgentContext, request: ModelRequest): Promise<ModelTurn> {
  return runModelTurn(ctx.model, request, ctx.signal, ctx.emit);
}
