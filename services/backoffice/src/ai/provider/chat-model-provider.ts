import { initChatModel } from 'langchain/chat_models/universal';
import type { BaseMessageLike } from '@langchain/core/messages';
import { OutputParserException } from '@langchain/core/output_parsers';
import { AI_DESC_CONTENT_SCHEMAS, AiAutoFillModelOutput, aiDescModelOutput } from '@bo/contracts';
import { AppError } from '@bo/service-kit';
import { autoFillMessages, descriptionMessages } from './prompts.ts';
import type { AiProvider, DescDraft, DescRequest, NameAnalysis } from './types.ts';

export interface ChatModelProviderOptions {
  /** LangChain's provider name (`initChatModel`'s modelProvider): openai, anthropic, ollama, … */
  provider: string;
  baseURL: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  method: 'jsonSchema' | 'functionCalling';
}

/** Plain JSON Schema from a TypeBox schema (its symbol keys are TypeBox's own bookkeeping). */
const jsonSchema = (schema: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

const DESC_SCHEMAS = Object.fromEntries(
  Object.entries(AI_DESC_CONTENT_SCHEMAS).map(([kind, content]) => [kind, jsonSchema(aiDescModelOutput(content))]),
) as Record<DescRequest['kind'], Record<string, unknown>>;
const AUTO_FILL_SCHEMA = jsonSchema(AiAutoFillModelOutput);

/** One retry of an answer that does not parse: models sometimes wrap or cut their JSON once. */
const PARSE_ATTEMPTS = 2;

/** The endpoint setting of each provider's LangChain class (OpenAI's client takes `configuration.baseURL`). */
const endpointFields = (provider: string, baseURL: string): Record<string, unknown> =>
  provider === 'openai' || provider === 'azure_openai' ? { configuration: { baseURL } } : { baseUrl: baseURL };

/**
 * A chat model of any LangChain provider (`AI_PROVIDER`, default openai: OpenAI, vLLM, Ollama,
 * llama.cpp server behind an OpenAI-compatible endpoint), made by LangChain's `initChatModel`,
 * with structured output from the contracts' JSON Schemas. Retries are LangChain's (bounded by
 * AI_MAX_RETRIES); the runner's deadline aborts the call through `signal`. A provider whose
 * integration package is not installed fails its calls (2102), and the log names the package.
 */
export class ChatModelProvider implements AiProvider {
  readonly name = 'model' as const;
  private readonly model: ReturnType<typeof initChatModel>;

  constructor(private readonly options: ChatModelProviderOptions) {
    this.model = initChatModel(options.model, {
      modelProvider: options.provider,
      apiKey: options.apiKey,
      ...endpointFields(options.provider, options.baseURL),
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries,
      temperature: 0,
    });
    // Awaited by every call; this only keeps an unknown provider from being an unhandled rejection.
    this.model.catch(() => undefined);
  }

  async describe(request: DescRequest, signal: AbortSignal): Promise<DescDraft> {
    const out = await this.structured<{ content: unknown; sources?: unknown }>(
      DESC_SCHEMAS[request.kind],
      'goods_description',
      descriptionMessages(request),
      signal,
    );
    let content = out.content;
    // Some servers return the JSON kinds as a JSON string; accept that, the schema check follows.
    if (request.kind !== 'detail-text' && typeof content === 'string') {
      try {
        content = JSON.parse(content);
      } catch {
        // left as is: the schema check reports it
      }
    }
    const sources = Array.isArray(out.sources) ? out.sources.filter((s): s is string => typeof s === 'string') : [];
    return { content, sources };
  }

  async proposeAutoFill(analysis: NameAnalysis, signal: AbortSignal): Promise<AiAutoFillModelOutput> {
    const out = await this.structured<Partial<Record<keyof AiAutoFillModelOutput, unknown>>>(
      AUTO_FILL_SCHEMA,
      'goods_auto_fill',
      autoFillMessages(analysis),
      signal,
    );
    const text = (v: unknown): string => (typeof v === 'string' ? v : '');
    return Object.fromEntries(
      Object.keys(AiAutoFillModelOutput.properties).map((k) => [k, text(out[k as keyof AiAutoFillModelOutput])]),
    ) as AiAutoFillModelOutput;
  }

  /** Structured output; an answer that does not parse is asked for once more before it counts as unusable (2104). */
  private async structured<T>(schema: Record<string, unknown>, name: string, messages: BaseMessageLike[], signal: AbortSignal): Promise<T> {
    const model = await this.model;
    const runnable = model.withStructuredOutput<Record<string, unknown>>(schema, { name, method: this.options.method });
    for (let attempt = 1; ; attempt++) {
      try {
        const out = await runnable.invoke(messages, { signal });
        if (!out || typeof out !== 'object') throw new OutputParserException('the model answered no JSON object');
        return out as T;
      } catch (err) {
        // JSON.parse's SyntaxError reaches here unwrapped when the content is not JSON at all.
        const unparsed =
          err instanceof OutputParserException || err instanceof SyntaxError || (err as Error)?.name === 'OutputParserException';
        if (!unparsed) throw err;
        if (attempt < PARSE_ATTEMPTS && !signal.aborted) continue;
        // The catalogue text only: the runner logs what the parser said.
        throw new AppError('AI_BAD_OUTPUT', { cause: err, isOperational: true });
      }
    }
  }
}
