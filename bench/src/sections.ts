import { guarded, type BenchContext } from './context.ts';
import type { MainDataset } from './dataset/main-dataset.ts';
import type { Section } from './options.ts';
import { NotAvailable, unavailableRow } from './report/rows.ts';
import { DAY_TARGET, loadRebuild, measureAggregationDay, measureFullRebuild, REBUILD_TARGET, readyForReads } from './rows/aggregation.ts';
import { AI_TARGET, measureAiAutoFill } from './rows/ai-autofill.ts';
import { AI_LIST_TARGET, measureAiList } from './rows/ai-list.ts';
import { LOADING_TARGET, measureLoading } from './rows/data-loading.ts';
import { EXCEL_TARGET, measureExcelDownload } from './rows/excel-download.ts';
import { measureOverhead, OVERHEAD_TARGET } from './rows/request-overhead.ts';
import { COPIES_TARGET, measureCopies } from './rows/service-copies.ts';
import { measureScaling, SCALING_TARGET } from './rows/scaling.ts';
import { statisticsCases, caseTitle, p95TargetOf } from './rows/statistics-cases.ts';
import { measureStatistics, statTarget } from './rows/statistics.ts';
import { measureStaffLimit, STAFF_TARGET } from './rows/staff-limit.ts';

const mainDataset = (ctx: BenchContext): MainDataset => {
  if ('unavailable' in ctx.dataset) throw new NotAvailable(`no data set: ${ctx.dataset.unavailable}`);
  return ctx.dataset;
};

/** Statistics and the AI list read the aggregates (`readyForReads`). */
const ensureAggregates = async (ctx: BenchContext, ds: MainDataset): Promise<void> =>
  readyForReads(ctx, ds, await loadRebuild(), '  building the aggregates first (the aggregation section did not run on this data set)');

/** What each section measures; each row or group of rows is guarded so one failure never ends the run. */
export const SECTION_RUNNERS: Record<Section, (ctx: BenchContext) => Promise<void>> = {
  loading: (ctx) => guarded(ctx, 'loading', 'data generator vs LOAD DATA', LOADING_TARGET, () => measureLoading(ctx)),

  aggregation: async (ctx) => {
    await guarded(ctx, 'aggregation', 'full rebuild, all kinds', REBUILD_TARGET, () => measureFullRebuild(ctx, mainDataset(ctx)));
    await guarded(ctx, 'aggregation', 'one day, all kinds', DAY_TARGET, () => measureAggregationDay(ctx, mainDataset(ctx)));
  },

  statistics: async (ctx) => {
    if ('unavailable' in ctx.dataset) {
      // Still one row per case, so the table shows what would be measured.
      const placeholder = { siteNo: '-', stdCtgNo: '-', mdId: '-', entrNo: '-', brandNo: '-', goodsNo: '-', payWayCd: '-' };
      for (const c of statisticsCases('2025-12-31', placeholder)) {
        ctx.add(unavailableRow('statistics', caseTitle(c), statTarget(p95TargetOf(c)), `no data set: ${ctx.dataset.unavailable}`));
      }
      return;
    }
    const ds = ctx.dataset;
    await guarded(ctx, 'statistics', 'aggregates for the statistics', 'built', async () => {
      await ensureAggregates(ctx, ds);
      return [];
    });
    await measureStatistics(ctx, ds);
  },

  excel: (ctx) =>
    guarded(ctx, 'excel', `goods status Excel download, ${ctx.scale.excelRows.toLocaleString('en-US')} rows`, EXCEL_TARGET, () =>
      measureExcelDownload(ctx),
    ),

  'staff-limit': (ctx) => guarded(ctx, 'staff-limit', 'increase/decrease, 50 clients', STAFF_TARGET, () => measureStaffLimit(ctx)),

  overhead: (ctx) => guarded(ctx, 'overhead', 'cheapest authenticated read', OVERHEAD_TARGET, () => measureOverhead(ctx, mainDataset(ctx))),

  copies: (ctx) =>
    guarded(ctx, 'copies', 'cheap report, two back-office copies', COPIES_TARGET, () => measureCopies(ctx, mainDataset(ctx))),

  ai: async (ctx) => {
    await guarded(ctx, 'ai', 'auto-fill, offline provider', AI_TARGET, () => measureAiAutoFill(ctx, mainDataset(ctx)));
    // The recommended list reads demand from the aggregates: build them (unmeasured) when no section did.
    await guarded(ctx, 'ai', 'recommended list, 8 clients', AI_LIST_TARGET, async () => {
      const ds = mainDataset(ctx);
      await ensureAggregates(ctx, ds);
      return await measureAiList(ctx, ds);
    });
  },

  scaling: (ctx) => guarded(ctx, 'scaling', 'statistics p95 as events grow', SCALING_TARGET, () => measureScaling(ctx)),
};
