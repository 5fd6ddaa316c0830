import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RunRequest } from '../../run-service-types.js';
import { completeChat } from '../openai-compat/chat-completion.js';
import { promptFor } from '../openai-compat/chat-prompt.js';
import { parseChatRequest } from '../openai-compat/chat-request.js';
import type { ChatRun } from '../openai-compat/chat-run.js';
import { streamChat } from '../openai-compat/chat-stream.js';
import { modelList, modelTarget, type ModelTarget } from '../openai-compat/model-names.js';
import {
  CHAT_SETTINGS,
  chatAnswerFormat,
  checkAnswerFormat,
  IGNORED_HEADER,
  ignoredSettings,
  RESPONSES_SETTINGS,
  responsesAnswerFormat,
  type AnswerFormat,
} from '../openai-compat/request-settings.js';
import { openAiErrorBody, openAiErrorHandler } from '../openai-compat/openai-errors.js';
import { completeResponse, type ResponsesRun } from '../openai-compat/responses-complete.js';
import { parseResponsesRequest } from '../openai-compat/responses-request.js';
import { streamResponse } from '../openai-compat/responses-stream.js';
import { threadFromHeader } from '../openai-compat/thread-header.js';
import { HttpProblem } from '../http-problem.js';
import type { RouteContext } from './route-context.js';
import { requestTrace } from '../run-request.js';

/**
 * An OpenAI-compatible API under `/v1`, behind the same bearer token:
 * `POST /v1/chat/completions` (JSON or SSE) where `model` names a Cadre
 * agent, `POST /v1/responses` (the Responses API, JSON or SSE events), and
 * `GET /v1/models`. Each completion is one durable run of the
 * run service; tool calls happen inside it and are never handed to the
 * client. Errors (auth and limits included) come in OpenAI's shape.
 */
export function openAiCompatRoutes(
  app: FastifyInstance,
  { service, requestSignal }: RouteContext,
): void {
  void app.register(
    async (v1) => {
      v1.setErrorHandler(openAiErrorHandler);
      v1.setNotFoundHandler((_request, reply) =>
        reply
          .status(404)
          .send(openAiErrorBody({ status: 404, code: 'not_found', message: 'No such route.' })),
      );

      v1.get('/models', async () => ({
        object: 'list',
        data: (await modelList(service)).map(modelObject),
      }));

      v1.get<{ Params: { model: string } }>('/models/:model', async (request, reply) => {
        const found = (await modelList(service)).find((m) => m.id === request.params.model);
        if (found) return modelObject(found);
        return reply.status(404).send(unknownModel(request.params.model));
      });

      // Before a run starts: a JSON answer the agent cannot give is refused, other settings noted.
      const settled = async (
        body: unknown,
        asked: { target: ModelTarget; format: AnswerFormat; at: string; names: readonly string[] },
      ): Promise<string[]> => {
        if (asked.format.type !== 'text') {
          const agents = await service.listAgents();
          const { target } = asked;
          const agent =
            target.kind === 'agent'
              ? agents.find((a) => a.name === target.name)
              : agents.find((a) => a.default === true);
          if (agent) checkAnswerFormat(asked.format, agent, asked.at);
        }
        return ignoredSettings(body, asked.names);
      };

      v1.post('/chat/completions', async (request, reply) => {
        const chat = parseChatRequest(request.body);
        const target = await modelTarget(service, chat.model);
        if (!target) return reply.status(404).send(unknownModel(chat.model));
        const ignored = await settled(request.body, {
          target,
          format: chatAnswerFormat(request.body),
          at: 'body.response_format',
          names: CHAT_SETTINGS,
        });
        if (ignored.length > 0) void reply.header(IGNORED_HEADER, ignored.join(','));
        const threadId = threadFromHeader(request);
        const runRequest: RunRequest = {
          ...requestTrace(request.headers),
          userId: request.userId,
          prompt: promptFor(chat.messages, threadId !== undefined),
          ...(threadId ? { threadId } : {}),
          ...(target.kind === 'agent' ? { agent: target.name } : {}),
        };
        const run: ChatRun = {
          reply,
          signal: requestSignal(reply),
          model: chat.model,
          baseUrl: baseUrl(request),
          includeUsage: chat.includeUsage,
          ignored,
          start: (hooks) => service.run(runRequest, hooks),
        };
        if (chat.stream) return streamChat(run);
        return completeChat(run);
      });

      v1.post('/responses', async (request, reply) => {
        const asked = parseResponsesRequest(request.body);
        const target = await modelTarget(service, asked.model);
        if (!target) return reply.status(404).send(unknownModel(asked.model));
        const ignored = await settled(request.body, {
          target,
          format: responsesAnswerFormat(request.body),
          at: 'body.text.format',
          names: RESPONSES_SETTINGS,
        });
        if (ignored.length > 0) void reply.header(IGNORED_HEADER, ignored.join(','));
        const threadId = await threadOfResponse(service, request, asked.previousRunId);
        const runRequest: RunRequest = {
          ...requestTrace(request.headers),
          userId: request.userId,
          prompt: promptFor(asked.messages, threadId !== undefined),
          ...(threadId ? { threadId } : {}),
          ...(target.kind === 'agent' ? { agent: target.name } : {}),
        };
        const run: ResponsesRun = {
          reply,
          signal: requestSignal(reply),
          model: asked.model,
          baseUrl: baseUrl(request),
          ...(asked.previousRunId ? { previousRunId: asked.previousRunId } : {}),
          ignored,
          start: (hooks) => service.run(runRequest, hooks),
        };
        if (asked.stream) return streamResponse(run);
        return completeResponse(run);
      });
    },
    { prefix: '/v1' },
  );
}

const modelObject = (model: { id: string; description: string }) => ({
  id: model.id,
  object: 'model' as const,
  // Agents have no creation time the API knows; OpenAI's field is required.
  created: 0,
  owned_by: 'cadre',
  description: model.description,
});

const unknownModel = (name: string) =>
  openAiErrorBody(
    {
      status: 404,
      code: 'model_not_found',
      message: `No model named '${name.slice(0, 100)}': models here are Cadre agents (GET /v1/models lists them).`,
    },
    'model',
  );

/**
 * The thread a Responses request continues: the header's, else the thread
 * of the run behind `previous_response_id` (the caller's own runs only).
 */
async function threadOfResponse(
  service: RouteContext['service'],
  request: FastifyRequest,
  previousRunId: string | undefined,
): Promise<string | undefined> {
  const header = threadFromHeader(request);
  if (header !== undefined || previousRunId === undefined) return header;
  const previous = await service.getRun(request.userId, previousRunId);
  if (!previous)
    throw new HttpProblem(
      404,
      'not_found',
      `body.previous_response_id: no response resp_${previousRunId.slice(0, 100)} of yours.`,
    );
  return previous.run.threadId;
}

/** How the client reached the server, for links it can follow back. */
const baseUrl = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;
