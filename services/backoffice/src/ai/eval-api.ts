/**
 * What the auto-fill evaluation (`tools/ai-eval`, `pnpm ai:eval`) uses of the back-office, so the
 * tool depends on this one entry (`@bo/backoffice/ai-eval-api`) and not on where the files live.
 * Its test also calls the auto-fill endpoint of the app on the evaluated data.
 */
export { createBackofficeApp } from '../app.ts';
export { BO_PREFIX } from '../deps.ts';
export { loadBackofficeConfig } from '../config.ts';
export { autoFill, type AutoFillContext } from './autofill/auto-fill.ts';
export type { CategoryThresholds } from './autofill/category-classifier.ts';
export { buildMasterIndex } from './autofill/master-index.ts';
export { AiRunner } from './provider/ai-runner.ts';
export { OfflineProvider } from './provider/offline-provider.ts';
export { loadMasterRows } from './data-access/masters.ts';
export type { MasterRows } from './model.ts';
export { analyseName } from './autofill/auto-fill.ts';
export {
  CATEGORY_CALIBRATION,
  FEATURE_NAMES,
  confidenceFeatures,
  probability,
  type CategoryCalibration,
  type ConfidenceFeatures,
} from './autofill/category-confidence.ts';
export type { MasterIndex } from './autofill/master-index.ts';
export { categoryThresholds } from './ai-config.ts';
