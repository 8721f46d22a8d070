import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AgentsConfig } from 'src/modules/agents/agents.config';
import type {
  ModelChunk,
  ModelRequest,
  ModelTool,
} from 'src/modules/runtime/application/ports/model-provider';
import type { ReasoningEffort } from 'src/kernel/agent-model';
import { RetryBudget } from 'src/modules/runtime/domain/retry-budget';
import { OpenAiModelProvider } from 'src/modules/runtime/infrastructure/openai-model.provider';
import { FakeOpenAi, FakeReply } from 'test/support/fake-openai';

const weather: ModelTool = {
  name: 'weather__forecast',
  description: 'The forecast of a city for the coming days.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer' } },
    required: ['city'],
  },
};
const clock: ModelTool = {
  name: 'clock__now',
  description: 'The current time.',
  parameters: { type: 'object', properties: {} },
};

describe('openai provider against an OpenAI-compatible server', () => {
  const openai = new FakeOpenAi();
  let provider: OpenAiModelProvider;

  beforeAll(async () => {
    const baseUrl = await openai.start();
    provider = new OpenAiModelProvider(
      AgentsConfig.from({
        OPENAI_BASE_URL: baseUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_TIMEOUT_MS: '5000',
        OPENAI_MAX_RETRIES: '0',
        OPENAI_TEXT_ONLY_MODELS: 'text-1',
      }),
    );
  });
  afterAll(() => openai.stop());

  const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
    modelId: 'gpt-test',
    instructions: 'You are a helpful agent.',
    temperature: 0.2,
    reasoningEffort: 'none',
    messages: [{ role: 'user', content: 'Weather in Paris and Oslo?' }],
    tools: [],
    maxOutputTokens: 2048,
    ...overrides,
  });

  const collect = async (body: ModelRequest): Promise<ModelChunk[]> => {
    const chunks: ModelChunk[] = [];
    await provider.stream(body, new AbortController().signal, (chunk) => {
      chunks.push(chunk);
      return true;
    });
    return chunks;
  };

  /** The body of the next request the fake receives while `run` runs. */
  const sent = async (run: () => Promise<unknown>): Promise<Record<string, unknown>> => {
    const before = openai.requests.length;
    await run();
    expect(openai.requests.length).toBe(before + 1);
    return openai.requests[before].body;
  };

  it('sends the tools as functions, streams text and then both interleaved calls whole, once', async () => {
    const paris = '{"city": "Paris", "days": 3}';
    const oslo = '{"city": "Oslo, Norway", "days": 10}';
    openai.script({
      kind: 'tool_calls',
      text: 'Let me look both up.',
      calls: [
        { id: 'call_paris', name: 'weather__forecast', arguments: paris },
        { id: 'call_oslo', name: 'weather__forecast', arguments: oslo },
      ],
    });
    let chunks: ModelChunk[] = [];
    const body = await sent(async () => (chunks = await collect(request({ tools: [weather, clock] }))));

    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: weather.name, description: weather.description, parameters: weather.parameters },
      },
      {
        type: 'function',
        function: { name: clock.name, description: clock.description, parameters: clock.parameters },
      },
    ]);
    const texts = chunks.slice(0, -1);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.every((chunk) => chunk.type === 'text')).toBe(true);
    expect(texts.map((chunk) => (chunk.type === 'text' ? chunk.text : '')).join('')).toBe(
      'Let me look both up.',
    );
    expect(chunks.at(-1)).toEqual({
      type: 'tool_calls',
      calls: [
        { id: 'call_paris', name: 'weather__forecast', arguments: paris },
        { id: 'call_oslo', name: 'weather__forecast', arguments: oslo },
      ],
    });
  });

  it('sends a user turn with an image as a text part and an image_url data URL; text-only models are named', async () => {
    openai.script({ kind: 'stream', chunks: ['A chart.'] });
    const base64 = Buffer.from('GIF89a-bytes').toString('base64');
    const body = await sent(() =>
      collect(
        request({
          messages: [
            {
              role: 'user',
              content: '<attachment title="c.gif">',
              image: { contentType: 'image/gif', base64 },
            },
            { role: 'user', content: 'What is it?' },
          ],
        }),
      ),
    );
    expect((body.messages as unknown[]).slice(1)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '<attachment title="c.gif">' },
          { type: 'image_url', image_url: { url: `data:image/gif;base64,${base64}` } },
        ],
      },
      { role: 'user', content: 'What is it?' },
    ]);
    expect([provider.acceptsImages('gpt-test'), provider.acceptsImages('text-1')]).toEqual([true, false]);
  });

  it('sends the calls and their results back on the follow-up request, paired by id', async () => {
    openai.script({
      kind: 'tool_calls',
      calls: [
        { id: 'call_a', name: 'weather__forecast', arguments: '{"city":"Paris"}' },
        { id: 'call_b', name: 'clock__now', arguments: '' },
      ],
    });
    const first = await collect(request({ tools: [weather, clock] }));
    const step = first.at(-1);
    if (step?.type !== 'tool_calls') throw new Error('expected tool calls');
    expect(first).toHaveLength(1);

    openai.script({ kind: 'stream', chunks: ['Sunny', ' in Paris.'] });
    const body = await sent(() =>
      collect(
        request({
          tools: [weather, clock],
          messages: [
            { role: 'user', content: 'Weather in Paris?' },
            { role: 'assistant', content: '', toolCalls: step.calls },
            { role: 'tool', toolCallId: 'call_a', content: 'Sunny, 24 °C' },
            { role: 'tool', toolCallId: 'call_b', content: '2025-06-01T12:00:00Z' },
          ],
        }),
      ),
    );
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a helpful agent.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'weather__forecast', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_b', type: 'function', function: { name: 'clock__now', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'Sunny, 24 °C' },
      { role: 'tool', tool_call_id: 'call_b', content: '2025-06-01T12:00:00Z' },
    ]);
  });

  it('keeps the text of an assistant turn that also called tools', async () => {
    openai.script({ kind: 'stream', chunks: ['ok'] });
    const body = await sent(() =>
      collect(
        request({
          messages: [
            { role: 'user', content: 'Time?' },
            {
              role: 'assistant',
              content: 'Checking.',
              toolCalls: [{ id: 'call_1', name: 'clock__now', arguments: '{}' }],
            },
            { role: 'tool', toolCallId: 'call_1', content: 'noon' },
            { role: 'assistant', content: 'It is noon.' },
            { role: 'user', content: 'Thanks' },
          ],
        }),
      ),
    );
    expect((body.messages as unknown[]).slice(1)).toEqual([
      { role: 'user', content: 'Time?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'clock__now', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'noon' },
      { role: 'assistant', content: 'It is noon.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('gives a unique id to calls the server sent without one, and "{}" to calls without arguments', async () => {
    openai.script({
      kind: 'tool_calls',
      calls: [
        { name: 'clock__now', arguments: '' },
        { name: 'weather__forecast', arguments: '{"city":"Lima"}' },
      ],
    });
    const chunks = await collect(request({ tools: [weather, clock] }));
    expect(chunks).toHaveLength(1);
    const [step] = chunks;
    if (step.type !== 'tool_calls') throw new Error('expected tool calls');
    expect(step.calls).toEqual([
      { id: expect.stringMatching(/^call_/), name: 'clock__now', arguments: '{}' },
      { id: expect.stringMatching(/^call_/), name: 'weather__forecast', arguments: '{"city":"Lima"}' },
    ]);
    expect(step.calls[0].id).not.toBe(step.calls[1].id);
  });

  it('maps the agent reasoning effort, and sends none for "none"', async () => {
    const expected: Record<ReasoningEffort, string | undefined> = {
      none: undefined,
      light: 'low',
      medium: 'medium',
      high: 'high',
    };
    for (const [effort, wire] of Object.entries(expected)) {
      openai.script({ kind: 'stream', chunks: ['ok'] });
      const body = await sent(() => collect(request({ reasoningEffort: effort as ReasoningEffort })));
      if (wire === undefined) expect(body).not.toHaveProperty('reasoning_effort');
      else expect(body.reasoning_effort).toBe(wire);
    }
  });

  it('sends no tools key when the agent has no tools', async () => {
    openai.script({ kind: 'stream', chunks: ['ok'] });
    const body = await sent(() => collect(request()));
    expect(body).not.toHaveProperty('tools');
    expect(body).toEqual({
      model: 'gpt-test',
      temperature: 0.2,
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 2048,
      messages: [
        { role: 'system', content: 'You are a helpful agent.' },
        { role: 'user', content: 'Weather in Paris and Oslo?' },
      ],
    });
  });

  it("asks for usage and yields the last chunk's counts after the answer and the calls", async () => {
    openai.script({
      kind: 'tool_calls',
      text: 'Checking.',
      calls: [{ id: 'call_1', name: 'clock__now', arguments: '{}' }],
      usage: { prompt: 1200, completion: 85, reasoning: 40 },
    });
    const chunks = await collect(request({ tools: [clock] }));
    expect(chunks.slice(-2)).toEqual([
      { type: 'tool_calls', calls: [{ id: 'call_1', name: 'clock__now', arguments: '{}' }] },
      { type: 'usage', usage: { promptTokens: 1200, completionTokens: 85, reasoningTokens: 40 } },
    ]);
    openai.script({ kind: 'stream', chunks: ['Hello.'] });
    expect(await collect(request())).toEqual([{ type: 'text', text: 'Hello.' }]);
  });

  it('reads usage sent with the finish, and takes counts a server sends wrong as 0', async () => {
    const finish = (usage: Record<string, unknown>) =>
      JSON.stringify({ choices: [{ delta: { content: 'Hi' }, finish_reason: 'stop' }], usage });
    openai.script(
      { kind: 'raw', data: [finish({ prompt_tokens: 7, completion_tokens: 2 })] },
      { kind: 'raw', data: [finish({ prompt_tokens: -3, completion_tokens: 'many' }), '[DONE]'] },
    );
    expect(await collect(request())).toEqual([
      { type: 'text', text: 'Hi' },
      { type: 'usage', usage: { promptTokens: 7, completionTokens: 2, reasoningTokens: 0 } },
    ]);
    expect((await collect(request())).at(-1)).toEqual({
      type: 'usage',
      usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0 },
    });
  });

  it('completes the calls at [DONE] or at the end of the body when no finish_reason comes', async () => {
    const head = (index: number, id: string) =>
      JSON.stringify({
        choices: [
          { delta: { tool_calls: [{ index, id, function: { name: 'clock__now', arguments: '' } }] } },
        ],
      });
    const piece = (index: number, text: string) =>
      JSON.stringify({ choices: [{ delta: { tool_calls: [{ index, function: { arguments: text } }] } }] });
    const calls = [
      { id: 'call_1', name: 'clock__now', arguments: '{"tz":"UTC"}' },
      { id: 'call_2', name: 'clock__now', arguments: '{}' },
    ];
    openai.script({
      kind: 'raw',
      data: [head(0, 'call_1'), head(1, 'call_2'), piece(0, '{"tz":'), piece(0, '"UTC"}'), '[DONE]'],
    });
    expect(await collect(request())).toEqual([{ type: 'tool_calls', calls }]);

    openai.script({ kind: 'raw', data: [head(0, 'call_1'), piece(0, '{"tz":"UTC"}'), head(1, 'call_2')] });
    expect(await collect(request())).toEqual([{ type: 'tool_calls', calls }]);
  });

  it('holds the body while the handler waits, then hands the rest in order; false stops the call', async () => {
    const text = (content: string) => JSON.stringify({ choices: [{ delta: { content } }] });
    const call = JSON.stringify({
      choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'clock__now' } }] } }],
    });
    // Every text piece is held; the body ends while the last is: nothing is handed before the
    // handler lets go, nothing is lost, the order is kept.
    openai.script({ kind: 'raw', data: [text('one'), text(' two'), call, text(' three')] });
    const handed: string[] = [];
    let holding = false;
    const ended = await provider.stream(request(), new AbortController().signal, (chunk) => {
      handed.push(`${holding ? 'while held: ' : ''}${chunk.type === 'text' ? chunk.text : chunk.type}`);
      if (chunk.type !== 'text') return true;
      holding = true;
      // Held for real time, in which the socket would deliver what follows were it not held.
      return new Promise((resolve) =>
        setTimeout(() => {
          holding = false;
          handed.push('let go');
          resolve(true);
        }, 100),
      );
    });
    expect(ended).toBe(true);
    // How the text is cut depends on the reads (a busy machine may read two writes at once):
    // whatever the cuts, each piece is let go before the next, and the text is whole and in order.
    expect(handed.filter((entry) => entry.startsWith('while held'))).toEqual([]);
    expect(handed.at(-1)).toBe('tool_calls');
    const pieces = handed.slice(0, -1);
    expect(pieces.filter((_, index) => index % 2 === 1)).toEqual(
      pieces.map(() => 'let go').slice(0, pieces.length / 2),
    );
    expect(pieces.filter((_, index) => index % 2 === 0).join('')).toBe('one two three');

    openai.script({ kind: 'raw', data: [text('one'), text(' two'), text(' three'), '[DONE]'] });
    const stopped: ModelChunk[] = [];
    const stoppedAfter = await provider.stream(request(), new AbortController().signal, (chunk) => {
      stopped.push(chunk);
      return false;
    });
    expect(stoppedAfter).toBe(false);
    expect(stopped).toEqual([{ type: 'text', text: 'one' }]);
  });

  it('yields reasoning (reasoning_content or reasoning) apart from the answer text', async () => {
    const delta = (fields: Record<string, string>) => JSON.stringify({ choices: [{ delta: fields }] });
    openai.script({
      kind: 'raw',
      data: [
        delta({ reasoning_content: 'Think, ' }),
        delta({ reasoning: 'then answer.' }),
        delta({ content: 'Done.' }),
        '[DONE]',
      ],
    });
    expect(await collect(request())).toEqual([
      { type: 'reasoning', text: 'Think, ' },
      { type: 'reasoning', text: 'then answer.' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('reads calls from a server that sends each call whole without an index', async () => {
    const whole = (id: string, city: string) =>
      JSON.stringify({
        choices: [
          {
            delta: {
              tool_calls: [
                {
                  id,
                  type: 'function',
                  function: { name: 'weather__forecast', arguments: `{"city":"${city}"}` },
                },
              ],
            },
          },
        ],
      });
    openai.script({
      kind: 'raw',
      data: [
        whole('call_x', 'Rome'),
        whole('call_y', 'Kyiv'),
        JSON.stringify({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] }),
      ],
    });
    expect(await collect(request())).toEqual([
      {
        type: 'tool_calls',
        calls: [
          { id: 'call_x', name: 'weather__forecast', arguments: '{"city":"Rome"}' },
          { id: 'call_y', name: 'weather__forecast', arguments: '{"city":"Kyiv"}' },
        ],
      },
    ]);
  });

  it('fails with model_error on a malformed stream, an error mid-stream or a call without a name', async () => {
    const text = JSON.stringify({ choices: [{ delta: { content: 'Hi' } }] });
    const streams = [
      [text, '{"choices": ['],
      [text, JSON.stringify({ error: { message: 'overloaded' } })],
      [
        JSON.stringify({
          choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '{}' } }] } }],
        }),
      ],
    ];
    for (const data of streams) {
      openai.script({ kind: 'raw', data });
      await expect(collect(request())).rejects.toMatchObject({ code: 'model_error' });
    }
  });

  it('fails with model_error, without gathering it, on a line longer than 4 MiB', async () => {
    const endless = JSON.stringify({ choices: [{ delta: { content: 'x'.repeat(5 * 1024 * 1024) } }] });
    openai.script({ kind: 'raw', data: [endless] });
    await expect(collect(request())).rejects.toMatchObject({
      code: 'model_error',
      message: expect.stringContaining('longer than 4194304 characters') as unknown,
    });
  });
});

describe('openai provider retries', () => {
  const openai = new FakeOpenAi();
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await openai.start();
  });
  afterAll(() => openai.stop());

  /** A provider that retries at once (a 1 ms back-off base) and gives up on a silent request after 200 ms. */
  const retrying = (env: Record<string, string> = {}) =>
    new OpenAiModelProvider(
      AgentsConfig.from({
        OPENAI_BASE_URL: baseUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_TIMEOUT_MS: '5000',
        OPENAI_FIRST_BYTE_TIMEOUT_MS: '200',
        OPENAI_MAX_RETRIES: '3',
        OPENAI_RETRY_BASE_MS: '1',
        ...env,
      }),
    );

  const request = (retries?: RetryBudget): ModelRequest => ({
    modelId: 'gpt-test',
    instructions: 'You are a helpful agent.',
    temperature: 0.2,
    reasoningEffort: 'none',
    messages: [{ role: 'user', content: 'Hello?' }],
    tools: [],
    maxOutputTokens: null,
    retries,
  });

  /** The text `provider` streams for one call, and the requests the fake received meanwhile. */
  const answer = async (provider: OpenAiModelProvider, retries?: RetryBudget) => {
    const before = openai.requests.length;
    let text = '';
    try {
      await provider.stream(request(retries), new AbortController().signal, (chunk) => {
        if (chunk.type === 'text') text += chunk.text;
        return true;
      });
    } finally {
      // A failed call leaves what it did not take for the next test otherwise.
      openai.unscript();
    }
    return { text, requests: openai.requests.slice(before) };
  };

  /** The error a call fails with, and the requests the fake received meanwhile. */
  const failure = async (provider: OpenAiModelProvider, retries?: RetryBudget) => {
    const before = openai.requests.length;
    const error = await answer(provider, retries).then(
      () => {
        throw new Error('expected the call to fail');
      },
      (failed: unknown) => failed as { code: string; message: string },
    );
    return { code: error.code, message: error.message, requests: openai.requests.slice(before) };
  };

  const gap = (requests: { at: number }[], index: number) => requests[index].at - requests[index - 1].at;

  it('waits what a 429 asks, in retry-after-ms or Retry-After seconds, then streams the answer', async () => {
    openai.script(
      { kind: 'status', status: 429, headers: { 'retry-after-ms': '300' } },
      { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      { kind: 'stream', chunks: ['Back', ' again.'] },
    );
    const { text, requests } = await answer(retrying());
    expect(text).toBe('Back again.');
    expect(requests).toHaveLength(3);
    // Lower bounds only: timers fire no earlier than asked, a busy machine fires them later.
    expect(gap(requests, 1)).toBeGreaterThanOrEqual(290);
    expect(gap(requests, 2)).toBeGreaterThanOrEqual(990);
  });

  it('retries server errors, a reset connection and requests that get no first byte', async () => {
    openai.script(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
      { kind: 'stream', chunks: ['Fine.'] },
    );
    expect(await answer(retrying())).toMatchObject({ text: 'Fine.', requests: { length: 3 } });

    openai.script({ kind: 'reset' }, { kind: 'stream', chunks: ['Reconnected.'] });
    expect(await answer(retrying())).toMatchObject({ text: 'Reconnected.', requests: { length: 2 } });

    // Silent before its head, then after a 200 head: each is given up after the first-byte timeout.
    openai.script(
      { kind: 'stall' },
      { kind: 'stall', headFirst: true },
      { kind: 'stream', chunks: ['Awake.'] },
    );
    const { text, requests } = await answer(retrying());
    expect(text).toBe('Awake.');
    expect(requests).toHaveLength(3);
    expect(gap(requests, 1)).toBeGreaterThanOrEqual(190);
    expect(gap(requests, 2)).toBeGreaterThanOrEqual(190);
  });

  it('fails at once, with one request, on answers that will not pass later', async () => {
    const cases: [FakeReply, string, string][] = [
      [
        { kind: 'status', status: 401, error: { message: 'Incorrect API key provided.' } },
        'model_auth_error',
        'The model endpoint answered 401 (the API key was refused): Incorrect API key provided. Check OPENAI_API_KEY.',
      ],
      [
        {
          kind: 'status',
          status: 400,
          error: {
            code: 'context_length_exceeded',
            message: "This model's maximum context length is 128000 tokens.",
          },
        },
        'model_context_too_long',
        "The model endpoint answered 400 (the conversation is longer than the model's context window): This model's maximum context length is 128000 tokens.",
      ],
      [
        { kind: 'status', status: 404, error: { message: 'The model gpt-test does not exist.' } },
        'model_error',
        "The model endpoint answered 404 (no such model or endpoint): The model gpt-test does not exist. Check the agent's model id and OPENAI_BASE_URL.",
      ],
      [
        {
          kind: 'status',
          status: 429,
          error: { code: 'insufficient_quota', message: 'You exceeded your quota.' },
        },
        'model_rate_limited',
        'The model endpoint answered 429 (quota exceeded): You exceeded your quota.',
      ],
    ];
    for (const [reply, code, message] of cases) {
      openai.script(reply);
      expect(await failure(retrying(), new RetryBudget(6))).toEqual({
        code,
        message,
        requests: [expect.anything()],
      });
    }
  });

  it("fails once the run's retries are spent, with the endpoint's reason, after budget + 1 requests", async () => {
    const limited = {
      kind: 'status',
      status: 429,
      error: { message: 'Rate limit reached for gpt-test.' },
    } as const;
    openai.script(limited, limited, limited, limited);
    const { code, message, requests } = await failure(
      retrying({ OPENAI_MAX_RETRIES: '10' }),
      new RetryBudget(2),
    );
    expect(code).toBe('model_rate_limited');
    expect(message).toBe(
      'The model endpoint answered 429 (rate limited) after 2 retries: Rate limit reached for gpt-test. The run has no retries left (RUN_MODEL_RETRY_BUDGET).',
    );
    expect(requests).toHaveLength(3);
  });

  it("shares one budget between a run's calls, each call still retrying at most OPENAI_MAX_RETRIES times", async () => {
    const provider = retrying({ OPENAI_MAX_RETRIES: '2' });
    const budget = new RetryBudget(3);
    openai.script(
      { kind: 'status', status: 502 },
      { kind: 'status', status: 502 },
      { kind: 'stream', chunks: ['One.'] },
    );
    expect(await answer(provider, budget)).toMatchObject({ text: 'One.', requests: { length: 3 } });
    openai.script(
      { kind: 'status', status: 502 },
      { kind: 'status', status: 502 },
      { kind: 'stream', chunks: ['Two.'] },
    );
    expect(await failure(provider, budget)).toEqual({
      code: 'model_error',
      message:
        'The model endpoint answered 502 (bad gateway) after 1 retry: scripted 502. The run has no retries left (RUN_MODEL_RETRY_BUDGET).',
      requests: [expect.anything(), expect.anything()],
    });

    openai.script(
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
    );
    expect(await failure(provider)).toMatchObject({
      code: 'model_error',
      message: 'The model endpoint answered 503 (service unavailable) after 2 retries: scripted 503.',
      requests: { length: 3 },
    });
  });

  it('does not retry once text was handed on, nor wait past the timeout for a retry the endpoint defers', async () => {
    openai.script(
      { kind: 'stream', chunks: ['Half', ' an'], cutOff: true },
      { kind: 'stream', chunks: ['again'] },
    );
    const broken = await failure(retrying());
    expect(broken).toMatchObject({ code: 'model_unavailable', requests: { length: 1 } });
    expect(broken.message).toMatch(/^The connection to the model endpoint broke mid-answer: /);

    openai.script({ kind: 'status', status: 429, headers: { 'retry-after': '60' } });
    expect(await failure(retrying())).toEqual({
      code: 'model_rate_limited',
      message:
        "The model endpoint answered 429 (rate limited): scripted 429. Another try would wait 60000 ms, past the call's timeout of 5000 ms (OPENAI_TIMEOUT_MS).",
      requests: [expect.anything()],
    });
  });

  it('bounds the call and its retries by OPENAI_TIMEOUT_MS, naming the last failure', async () => {
    openai.script({ kind: 'stall' }, { kind: 'stall' }, { kind: 'stall' }, { kind: 'stall' });
    const { code, message, requests } = await failure(
      retrying({ OPENAI_TIMEOUT_MS: '500', OPENAI_MAX_RETRIES: '10' }),
    );
    expect(code).toBe('model_timeout');
    expect(message).toBe(
      'The model did not answer within 500 ms. Its last attempt: The model endpoint sent nothing within 200 ms.',
    );
    expect(requests.length).toBeGreaterThanOrEqual(2);
  });

  it('retries an endpoint that refuses connections, then says it could not be reached', async () => {
    const closed = new FakeOpenAi();
    const closedUrl = await closed.start();
    await closed.stop();
    const provider = retrying({ OPENAI_BASE_URL: closedUrl, OPENAI_MAX_RETRIES: '1' });
    await expect(provider.stream(request(), new AbortController().signal, () => true)).rejects.toMatchObject({
      code: 'model_unavailable',
      message: expect.stringMatching(
        /^The model endpoint could not be reached after 1 retry: connect ECONNREFUSED/,
      ) as unknown,
    });
  });
});
