import { describe, expect, it } from 'vitest';
import { HttpProblem } from '../http-problem.js';
import { promptFor } from './chat-prompt.js';
import type { ChatMessage } from './chat-request.js';

const user = (content: ChatMessage['content']): ChatMessage => ({ role: 'user', content });

describe('promptFor', () => {
  it('is the user message itself when there is nothing before it', () => {
    expect(promptFor([user('  Hi there ')], false)).toBe('Hi there');
    expect(
      promptFor(
        [
          user([
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ]),
        ],
        false,
      ),
    ).toBe('one\ntwo');
  });

  it('puts earlier messages before it as a labelled transcript, client tool calls included', () => {
    const prompt = promptFor(
      [
        { role: 'developer', content: 'Be brief.' },
        user('Weather?'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', function: { name: 'weather', arguments: '{"city":"Lyon"}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'Sunny' },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'No forecasts.' }] },
        { role: 'assistant', content: '' },
        user('Thanks'),
      ],
      false,
    );
    expect(prompt).toBe(
      [
        'Earlier messages of this conversation, for context:',
        'System: Be brief.',
        'User: Weather?',
        'Assistant called weather({"city":"Lyon"})',
        'Tool result (c1): Sunny',
        'Assistant: No forecasts.',
        "The user's latest message, which you answer:\nThanks",
      ].join('\n\n'),
    );
  });

  it('leaves earlier messages out when a stored thread goes on', () => {
    expect(promptFor([user('old'), { role: 'assistant', content: 'x' }, user('new')], true)).toBe(
      'new',
    );
  });

  it('refuses a conversation that does not end with a user text', () => {
    const refused = (messages: ChatMessage[]) => {
      try {
        promptFor(messages, false);
      } catch (error) {
        return error instanceof HttpProblem ? `${error.status} ${error.message}` : 'other';
      }
      return 'accepted';
    };
    expect(refused([user('hi'), { role: 'assistant', content: 'pre' }])).toMatch(
      /^400 body\.messages\.1: the last message must be the user's/,
    );
    expect(refused([user('   ')])).toBe('400 body.messages.0: must not be empty');
    expect(refused([user([{ type: 'image_url' }])])).toMatch(
      /^400 body\.messages\.0\.content\.0: only text parts/,
    );
  });
});
