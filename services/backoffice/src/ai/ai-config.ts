import { Type } from '@sinclair/typebox';
import { AI_LIST_WINDOW_DAYS_SCHEMA } from '@bo/aggregates';
import type { CategoryThresholds } from './autofill/category-classifier.ts';

/**
 * AI_* environment variables, composed into the back-office config. With AI_BASE_URL unset the
 * built-in offline provider answers; every other value has a default that works for both.
 */
export const aiConfigSchema = {
  AI_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description: 'OpenAI-compatible endpoint (…/v1); unset = built-in offline provider',
    }),
  ),
  AI_PROVIDER: Type.String({
    default: 'openai',
    pattern: '^[a-z][a-z0-9_-]*$',
    description:
      "LangChain chat provider of the model at AI_BASE_URL (initChatModel's modelProvider: openai, anthropic, ollama, …); its integration package must be installed (@langchain/openai is)",
  }),
  AI_API_KEY: Type.String({ default: 'not-needed', minLength: 1, description: 'API key sent to AI_BASE_URL' }),
  AI_MODEL: Type.String({ default: 'gpt-4o-mini', minLength: 1, description: 'model name at AI_BASE_URL' }),
  AI_STRUCTURED_METHOD: Type.Union([Type.Literal('jsonSchema'), Type.Literal('functionCalling')], {
    default: 'jsonSchema',
    description: 'how structured output is requested: response_format json_schema, or a forced tool call',
  }),
  AI_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 600000,
    default: 20000,
    description: 'deadline of one AI request including queueing and retries; past it the answer is 900/2101',
  }),
  AI_BREAKER_HALF_OPEN_MS: Type.Integer({
    minimum: 100,
    maximum: 3600000,
    default: 30000,
    description:
      'after a model call times out or fails, calls fail fast (auto-fill falls back to the offline analysis) for this long, then one call tries the endpoint again',
  }),
  AI_MAX_RETRIES: Type.Integer({ minimum: 0, maximum: 5, default: 1, description: 'retries of a failed model call within the deadline' }),
  AI_MAX_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 256, default: 4, description: 'model calls running at once per process' }),
  AI_MAX_QUEUE: Type.Integer({
    minimum: 0,
    maximum: 10000,
    default: 16,
    description: 'model calls allowed to wait for a slot; beyond it the answer is 900/2103 (busy)',
  }),
  AI_RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 0,
    maximum: 100000,
    default: 30,
    description:
      'AI operations one user (token sub) may call per minute, all five together, counted in Redis across every copy; over it 900/1429 (httpStatus 429) with Retry-After; 0 = off. Redis down: not limited',
  }),
  AI_CATEGORY_RULE: Type.Union([Type.Literal('similarity'), Type.Literal('probability')], {
    default: 'similarity',
    description:
      'how auto-fill accepts the top category: similarity = AI_CATEGORY_MIN_SCORE and AI_CATEGORY_MIN_MARGIN; probability = its calibrated probability of being right (the candidate score) reaches AI_CATEGORY_MIN_CONFIDENCE (on the held-out test half: more acceptance, precision 94.8 %, below the 95 % target)',
  }),
  AI_CATEGORY_MIN_CONFIDENCE: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.5,
    description:
      'probability rule: least estimated probability (the candidate score, calibrated on the hand-labelled dev half) that the top category is right for auto-fill to accept it',
  }),
  AI_CATEGORY_MIN_SCORE: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.4,
    description: 'similarity rule: auto-fill accepts the top category only when its similarity is at least this',
  }),
  AI_CATEGORY_CANDIDATE_FLOOR: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.1,
    description: 'a leaf whose similarity (not its probability) is below this is not listed among the category candidates',
  }),
  AI_CATEGORY_MIN_MARGIN: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.1,
    description:
      'similarity rule: and when it leads the best rival candidate by at least this (a sibling ruled out by distinguishing words is no rival)',
  }),
  AI_CATEGORY_GOODS_PER_LEAF: Type.Integer({
    minimum: 0,
    maximum: 1000,
    default: 50,
    description: 'existing goods names per leaf category (newest first) the category classifier learns from; 0 = category names only',
  }),
  AI_BRAND_FUZZY_MIN: Type.Number({
    minimum: 0.5,
    maximum: 1,
    default: 0.8,
    description: 'least Hangul-aware similarity for a fuzzy brand match',
  }),
  AI_MASTER_REFRESH_MS: Type.Integer({
    minimum: 1000,
    default: 300000,
    description:
      'brand/category masters, the goods-name sample and the AI list’s middle goods number (where its scoring splits the catalogue) are cached in memory and reloaded after this age',
  }),
  AI_DESC_MAX_PAGES: Type.Integer({
    minimum: 1,
    maximum: 20,
    default: 4,
    description: 'document pages given to the description generator',
  }),
  AI_LIST_WINDOW_DAYS: AI_LIST_WINDOW_DAYS_SCHEMA,
  AI_LIST_MIN_INFLOW: Type.Integer({
    minimum: 1,
    default: 100,
    description: 'page views in the window from which demand without conversion is a reason',
  }),
  AI_LIST_MIN_SCORE: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 35,
    description:
      'least recommendation score for the AI goods list: three listing gaps (brand, keywords, SEO) reach it alone, otherwise a goods needs evidence (demand without conversion, waiting restock requests, low ratings); 35 lists 8.6 % of the demo goods',
  }),
  AI_LIST_MAX_CONVERSION: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.02,
    description: 'net ordered quantity per page view at or below which conversion counts as low',
  }),
};

/** The category confidence test's settings from the configuration (the probability rule sets `minConfidence`). */
export function categoryThresholds(c: {
  AI_CATEGORY_RULE: 'probability' | 'similarity';
  AI_CATEGORY_MIN_CONFIDENCE: number;
  AI_CATEGORY_MIN_SCORE: number;
  AI_CATEGORY_MIN_MARGIN: number;
  AI_CATEGORY_CANDIDATE_FLOOR: number;
}): CategoryThresholds {
  return {
    minScore: c.AI_CATEGORY_MIN_SCORE,
    minMargin: c.AI_CATEGORY_MIN_MARGIN,
    candidateFloor: c.AI_CATEGORY_CANDIDATE_FLOOR,
    ...(c.AI_CATEGORY_RULE === 'probability' ? { minConfidence: c.AI_CATEGORY_MIN_CONFIDENCE } : {}),
  };
}
