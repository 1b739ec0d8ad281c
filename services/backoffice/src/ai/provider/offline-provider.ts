import type { AiAutoFillModelOutput } from '@bo/contracts';
import { ruleBasedListing } from '../autofill/listing-text.ts';
import { writeExtractive } from '../description/extractive-writer.ts';
import type { AiProvider, DescDraft, DescRequest, NameAnalysis } from './types.ts';

/**
 * The built-in provider used when no model endpoint is configured: extractive descriptions from
 * the retrieved pages and rule-based listing fields from the name analysis. It runs in process
 * and answers in milliseconds, through the same runner and verification as a model.
 */
export class OfflineProvider implements AiProvider {
  readonly name = 'offline' as const;

  describe(request: DescRequest): Promise<DescDraft> {
    return Promise.resolve(writeExtractive(request));
  }

  proposeAutoFill(analysis: NameAnalysis): Promise<AiAutoFillModelOutput> {
    return Promise.resolve(ruleBasedListing(analysis));
  }
}
