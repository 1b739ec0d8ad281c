import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response, Router } from 'express';
import {
  findOperation,
  type CategoryStatusRequest,
  type EnterpriseStatusRequest,
  type GoodsStatusRequest,
  type HourlyStatusRequest,
  type PayWayStatusRequest,
  type PeriodStatusRequest,
} from '@bo/contracts';
import { compactDay, platformToday } from '@bo/db';
import { mountOperation, type AuthPrincipal, type Logger } from '@bo/service-kit';
import type { ListKind } from '@bo/aggregates';
import type { BackofficeDeps } from '../deps.ts';
import { refuseSupplierToken, supplierOf } from '../shared/supplier-scope.ts';
import { NO_ANSWER_CACHE, redisAnswerCache, type KeptAnswer } from './answer-cache.ts';
import { categoryReport, categoryReportRows } from './category-report.ts';
import { enterpriseReport, enterpriseReportRows } from './enterprise-report.ts';
import { attachmentHeader, sendWorkbook, type ExcelColumn } from './excel/excel-writer.ts';
import { categoryColumns, enterpriseColumns, goodsColumns, hourlyColumns, payWayColumns, periodColumns } from './excel/grid-columns.ts';
import { reportTitle, type ReportConditions } from './excel/report-title.ts';
import { goodsReport, goodsReportRows } from './goods-report.ts';
import { hourlyReportGraph, hourlyReportList } from './hourly-report.ts';
import { payWayReport, payWayReportRows } from './pay-way-report.ts';
import { periodReportGraph, periodReportList } from './period-report.ts';
import { requestedDays } from './report-range.ts';

const list = <R>(payloads: R[]) => ({ totalCount: payloads.length, payloads });

/**
 * A kept answer written piece by piece as Redis gives it, with its length known up front. A
 * failure midway (the entry gone) can only cut the connection: the client sees a short body,
 * never a wrong one. A client that leaves stops the reads.
 */
async function sendKept(res: Response, kept: KeptAnswer, logger: Logger): Promise<void> {
  res.type('json').setHeader('Content-Length', String(kept.bytes));
  try {
    await pipeline(Readable.from(kept.pieces()), res);
  } catch (err) {
    if (!res.headersSent) throw err;
    logger.warn('kept answer not sent whole', { message: (err as Error).message });
  }
}

/** The statistics operations: graph data, grid lists, Excel downloads and the category TOP-N. */
export function mountStatisticsRoutes(router: Router, deps: BackofficeDeps): void {
  const { knex, config } = deps;
  const op = findOperation;

  const cache =
    deps.redis && config.STATISTICS_ANSWER_CACHE_SECONDS > 0
      ? redisAnswerCache({
          knex,
          redis: deps.redis,
          prefix: config.REDIS_PREFIX,
          ttlSeconds: config.STATISTICS_ANSWER_CACHE_SECONDS,
          gzipMinBytes: config.STATISTICS_GZIP_MIN_BYTES,
          logger: deps.logger,
        })
      : NO_ANSWER_CACHE;
  /**
   * An aggregate list's answer through the cache (answer-cache.ts); the query is the scoped one.
   * JSON text is written here (what `res.json` would write), gzipped for a caller that accepts
   * it when the cache has a gzipped form; a value is left to the operation.
   */
  const cached = async <Q extends { startDate: string; endDate: string }, T>(
    res: Response,
    kind: ListKind,
    operationId: string,
    q: Q,
    compute: (q: Q) => Promise<T>,
  ): Promise<T | undefined> => {
    const gzip = res.req.acceptsEncodings('gzip') === 'gzip';
    const answer = await cache.answer(kind, operationId, q, requestedDays(q.startDate, q.endDate), () => compute(q), { gzip });
    if ('value' in answer) return answer.value;
    // The body depends on Accept-Encoding whichever form this one is.
    res.vary('Accept-Encoding');
    if ('kept' in answer ? answer.kept.gzipped : answer.gzipped) res.setHeader('Content-Encoding', 'gzip');
    if ('kept' in answer) await sendKept(res, answer.kept, deps.logger);
    else res.type('json').send(answer.gzipped ?? answer.json);
    return undefined;
  };

  const scoped = <Q extends { entrNo?: string | undefined }>(q: Q, auth: AuthPrincipal | undefined): Q => ({
    ...q,
    entrNo: supplierOf(auth, q.entrNo),
  });
  const unscoped = <Q>(q: Q, auth: AuthPrincipal | undefined, report: string): Q => {
    refuseSupplierToken(auth, report);
    return q;
  };

  /**
   * The rows are written as they arrive: aggregate lists come straight from a database stream.
   * The sheet is named for the report and `agrtGb`; the (supplier-scoped) conditions head it.
   */
  const download = <R>(
    res: Response,
    report: string,
    columns: ExcelColumn<R>[],
    rows: AsyncIterable<R> | Iterable<R>,
    query: ReportConditions & { fileName?: string | undefined },
    defaultBase: string,
  ) => {
    const today = compactDay(platformToday(config.PLATFORM_TIME_ZONE, deps.clock?.() ?? new Date()));
    const contentDisposition = attachmentHeader(query.fileName, `${defaultBase}-${today}.xlsx`);
    return sendWorkbook(res, deps.logger, columns, rows, { ...reportTitle(report, query), contentDisposition });
  };

  // Graph data: POST v1 (body) and GET v2 (query) share the rules.
  mountOperation<unknown, PeriodStatusRequest>(router, op('getPeriodBasedStatusGraphData'), ({ body, auth }) =>
    periodReportGraph(knex, scoped(body, auth)),
  );
  mountOperation<PeriodStatusRequest>(router, op('getPeriodSalesStatusGraphData'), ({ query, auth }) =>
    periodReportGraph(knex, scoped(query, auth)),
  );
  mountOperation<unknown, HourlyStatusRequest>(router, op('getHourBasedStatusGraphData'), ({ body, auth }) =>
    hourlyReportGraph(knex, scoped(body, auth)),
  );
  mountOperation<HourlyStatusRequest>(router, op('getHourlySalesStatusGraphData'), ({ query, auth }) =>
    hourlyReportGraph(knex, scoped(query, auth)),
  );

  // Period and hourly: the worker's period rollups for built days, raw events for the others (report-sums.ts).
  mountOperation<PeriodStatusRequest>(router, op('getPeriodBasedStatusList'), ({ query, auth }) =>
    periodReportList(knex, scoped(query, auth)),
  );
  mountOperation<PeriodStatusRequest>(router, op('downloadPeriodBasedStatusExcel'), async ({ query, auth, res }) => {
    const conditions = scoped(query, auth);
    const rows = await periodReportList(knex, conditions);
    await download(res, '기간별', periodColumns(query.agrtGb, query.calendarType), rows.payloads, conditions, 'period-status');
  });
  mountOperation<HourlyStatusRequest>(router, op('getHourBasedStatusList'), ({ query, auth }) =>
    hourlyReportList(knex, scoped(query, auth)),
  );
  mountOperation<HourlyStatusRequest>(router, op('downloadHourBasedStatusExcel'), async ({ query, auth, res }) => {
    const conditions = scoped(query, auth);
    const rows = await hourlyReportList(knex, conditions);
    await download(res, '시간대별', hourlyColumns(query.agrtGb), rows.payloads, conditions, 'hourly-status');
  });

  // Daily aggregates.
  mountOperation<CategoryStatusRequest>(router, op('getCategorySalesStatusTop'), ({ query, auth, res }) =>
    // N is part of the key: copies configured differently never share an answer.
    cached(res, 'category', `getCategorySalesStatusTop-${config.STATISTICS_TOP_N}`, unscoped(query, auth, 'category'), (q) =>
      categoryReport(knex, q, config.STATISTICS_TOP_N),
    ),
  );
  mountOperation<CategoryStatusRequest>(router, op('getCategoryStatusList'), ({ query, auth, res }) =>
    cached(res, 'category', 'getCategoryStatusList', unscoped(query, auth, 'category'), async (q) => list(await categoryReport(knex, q))),
  );
  mountOperation<CategoryStatusRequest>(router, op('categoryStatusExcelDownload'), ({ query, auth, res }) =>
    download(
      res,
      '카테고리별',
      categoryColumns(query.agrtGb),
      categoryReportRows(knex, unscoped(query, auth, 'category')),
      query,
      'category-status',
    ),
  );
  mountOperation<PayWayStatusRequest>(router, op('getPayWayStatusList'), ({ query, auth, res }) =>
    cached(res, 'payway', 'getPayWayStatusList', unscoped(query, auth, 'payment-method'), async (q) => list(await payWayReport(knex, q))),
  );
  mountOperation<PayWayStatusRequest>(router, op('payWayStatusExcelDownload'), ({ query, auth, res }) =>
    download(
      res,
      '결제수단별',
      payWayColumns(query.agrtGb),
      payWayReportRows(knex, unscoped(query, auth, 'payment-method')),
      query,
      'pay-way-status',
    ),
  );
  mountOperation<GoodsStatusRequest>(router, op('getGoodsStatusList'), ({ query, auth, res }) =>
    cached(res, 'goods', 'getGoodsStatusList', scoped(query, auth), async (q) => list(await goodsReport(knex, q))),
  );
  mountOperation<GoodsStatusRequest>(router, op('downloadGoodsStatusExcel'), ({ query, auth, res }) => {
    const conditions = scoped(query, auth);
    return download(res, '상품별', goodsColumns(query.agrtGb), goodsReportRows(knex, conditions), conditions, 'goods-status');
  });
  mountOperation<EnterpriseStatusRequest>(router, op('getEnterpriseStatusList'), ({ query, auth, res }) =>
    cached(res, 'entr', 'getEnterpriseStatusList', scoped(query, auth), async (q) => list(await enterpriseReport(knex, q))),
  );
  mountOperation<EnterpriseStatusRequest>(router, op('downloadEnterpriseStatusExcel'), ({ query, auth, res }) => {
    const conditions = scoped(query, auth);
    return download(
      res,
      '공급사별',
      enterpriseColumns(query.agrtGb),
      enterpriseReportRows(knex, conditions),
      conditions,
      'enterprise-status',
    );
  });
}
