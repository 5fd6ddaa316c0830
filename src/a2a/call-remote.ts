import { randomUUID } from 'node:crypto';
import { Role } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { remoteAnswer, type RemoteAnswer } from './remote-answer.js';

export interface RemoteCall {
  /** The agent card's full URL (Gemini CLI `agent_card_url`, ADK `agent_card`). */
  agentCardUrl: string;
  text: string;
  signal: AbortSignal;
}

/**
 * Sends one message to an A2A agent through the SDK's client: the card is
 * fetched from its URL (the SDK picks the transport it lists), then
 * `SendMessage` waits for the reply (blocking, so a task comes back finished
 * or stopped, not merely submitted).
 */
export async function callRemote(call: RemoteCall): Promise<RemoteAnswer> {
  const client = await new ClientFactory().createFromUrl(call.agentCardUrl, '');
  const reply = await client.sendMessage(
    {
      tenant: '',
      message: {
        messageId: randomUUID(),
        contextId: '',
        taskId: '',
        role: Role.ROLE_USER,
        parts: [
          {
            content: { $case: 'text', value: call.text },
            metadata: undefined,
            filename: '',
            mediaType: 'text/plain',
          },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        returnImmediately: false,
      },
      metadata: undefined,
    },
    { signal: call.signal },
  );
  return remoteAnswer(reply);
}
