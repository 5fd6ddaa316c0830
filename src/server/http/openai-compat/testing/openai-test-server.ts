// Test-only: the real server as the OpenAI-compatible tests use it, and the openai SDK in front.
import OpenAI from 'openai';
import type { ModelClient } from '../../../../model/types.js';
import {
  startAgentsTestServer,
  WRITER_AGENT,
  type AgentsTestServer,
} from '../../testing/real-test-server.js';

/** The openai SDK pointed at `url`'s /v1 as `apiKey`, without retries (a test sees each answer). */
export const openAiClient = (url: string, apiKey: string): OpenAI =>
  new OpenAI({ apiKey, baseURL: `${url}/v1`, maxRetries: 0 });

export interface OpenAiTestServer {
  live: AgentsTestServer<'ann'>;
  /** The SDK as ann. */
  client: OpenAI;
}

/** The real server over `model` with the greeter (`greeter`, its YAML) and the writer, and ann's SDK. */
export async function startOpenAiTestServer(
  prefix: string,
  greeter: string,
  model: ModelClient,
): Promise<OpenAiTestServer> {
  const live = await startAgentsTestServer({
    prefix,
    agents: { greeter, writer: WRITER_AGENT },
    users: ['ann'],
    run: { modelClient: model },
  });
  return { live, client: openAiClient(live.server.url, live.users.ann.token) };
}
