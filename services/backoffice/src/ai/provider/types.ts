import type { AiAutoFillModelOutput, AiDescOutput } from '@bo/contracts';
import type { BrandMatch } from '../autofill/brand-matcher.ts';
import type { CategoryCandidate } from '../autofill/category-classifier.ts';

/** A document page given to the description generator, labelled `P1`, `P2` … in the prompt. */
export interface DescPage {
  id: string;
  fileName: string;
  pageNumber: number;
  text: string;
}

export interface DescRequest {
  kind: AiDescOutput;
  optionName: string;
  goods: {
    goodsNo: string;
    goodsNm: string;
    brandNm?: string;
    hierarchy?: string;
    modlNm?: string;
    mfcoNm?: string;
    homeNm?: string;
  };
  /** Most relevant first. */
  pages: DescPage[];
  /** Seller-supplied text: data for the generator, never instructions. */
  additionalInfo?: string;
  /** What the retriever searched for, so an extractive provider ranks sentences the same way. */
  query: string;
}

/** Content in the option's shape (text, array or object) and the page ids it drew on. */
export interface DescDraft {
  content: unknown;
  sources: string[];
}

/** What the deterministic analysis of a product name found, given to every provider. */
export interface NameAnalysis {
  productName: string;
  cleanedName: string;
  brand: BrandMatch;
  candidates: CategoryCandidate[];
  accepted?: CategoryCandidate;
  modelCodes: string[];
  origin?: { word: string; country: string };
  attributeWords: string[];
}

export interface AiProvider {
  readonly name: 'offline' | 'model';
  describe(request: DescRequest, signal: AbortSignal): Promise<DescDraft>;
  proposeAutoFill(analysis: NameAnalysis, signal: AbortSignal): Promise<AiAutoFillModelOutput>;
}
