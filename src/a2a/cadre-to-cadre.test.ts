import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peerClient, sendText, startCadrePeers, type CadrePeers } from './testing/cadre-peers.js';
import { remoteAnswer } from './remote-answer.js';

const TOKEN_VAR = 'CADRE_TEST_PEER_TOKEN';
const saved = process.env[TOKEN_VAR];
let peers: CadrePeers;

beforeAll(async () => {
  peers = await startCadrePeers({ tokenVar: TOKEN_VAR });
});
afterAll(async () => {
  if (saved === undefined) delete process.env[TOKEN_VAR];
  else process.env[TOKEN_VAR] = saved;
  await peers.close();
});

describe('Cadre calling Cadre over A2A with a bearer token (two real servers, scripted models)', () => {
  it('the SDK client finds a one-agent server’s card from …/a2a/<agent> without a trailing slash', async () => {
    const task = await sendText(await peerClient(peers.peer, 'greeter'), 'direct');
    expect(remoteAnswer(task)).toMatchObject({ text: 'Hello! You said: direct' });
  });

  it('an A2A task on one server delegates to an agent of the other, which runs it as the token’s user', async () => {
    const task = await sendText(
      await peerClient(peers.home, 'boss', { slash: true }),
      'rain in Oslo?',
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(remoteAnswer(task).text).toContain('Hello! You said: rain in Oslo?');
    // The peer stored the run, as its own user Ann.
    const ann = peers.peer.users.ann.id;
    const threads = await peers.peer.service.listThreads(ann);
    const seen = await Promise.all(threads.map((t) => peers.peer.service.getThread(ann, t.id)));
    expect(seen.flatMap((t) => t?.messages.map((m) => m.content) ?? [])).toContain('rain in Oslo?');
  });

  it('without the token the peer refuses (401), and the calling agent hears so', async () => {
    process.env[TOKEN_VAR] = 'not-the-token';
    try {
      const task = await sendText(await peerClient(peers.home, 'boss', { slash: true }), 'snow?');
      expect(remoteAnswer(task).text).toMatch(/401/);
      expect(remoteAnswer(task).text).not.toContain('Hello! You said: snow?');
    } finally {
      process.env[TOKEN_VAR] = peers.peer.users.ann.token;
    }
  });
});
