import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown> } };
  tools?: unknown[];
}

/** What the stub answers: the assistant's content (JSON text), or an HTTP failure, after an optional delay. */
export type StubAnswer = { content: string; delayMs?: number } | { status: number; delayMs?: number };

/**
 * A loopback OpenAI-compatible server (POST /v1/chat/completions) for the real ChatOpenAI client.
 * It records every request body and answers with whatever the current test's responder says.
 */
export class OpenAiStub {
  readonly requests: ChatRequest[] = [];
  responder: (req: ChatRequest) => StubAnswer = () => ({ content: '{}' });
  private server?: Server;

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
          res.writeHead(404).end();
          return;
        }
        const body = JSON.parse(raw) as ChatRequest;
        this.requests.push(body);
        const answer = this.responder(body);
        const send = () => {
          if (res.destroyed) return;
          if ('status' in answer) {
            res
              .writeHead(answer.status, { 'content-type': 'application/json' })
              .end(JSON.stringify({ error: { message: 'stub failure', type: 'server_error' } }));
            return;
          }
          // With tools (structured output by function calling) the answer is a call of the forced tool.
          const tool = (body.tools?.[0] as { function?: { name: string } } | undefined)?.function?.name;
          const message = tool
            ? {
                role: 'assistant',
                content: null,
                tool_calls: [{ id: 'call_1', type: 'function', function: { name: tool, arguments: answer.content } }],
              }
            : { role: 'assistant', content: answer.content };
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              id: `chatcmpl-${this.requests.length}`,
              object: 'chat.completion',
              created: 1_700_000_000,
              model: body.model,
              choices: [{ index: 0, message, finish_reason: tool ? 'tool_calls' : 'stop' }],
              usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
            }),
          );
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** The JSON inside the <data> block of the last user message, as the model would read it. */
export function dataBlockOf(req: ChatRequest): Record<string, unknown> {
  const human = req.messages.filter((m) => m.role === 'user').at(-1)!.content;
  const inner = human.slice(human.indexOf('<data>') + '<data>'.length, human.lastIndexOf('</data>'));
  return JSON.parse(inner) as Record<string, unknown>;
}
