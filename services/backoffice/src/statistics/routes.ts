import type { Response, Router } from 'express';
import {
  AGRT_GB,
  findOperation,
  type AgrtGb,
  type CategoryStatusRequest,
  type EnterpriseStatusRequest,
  type GoodsStatusRequest,
  type HourlyStatusRequest,
  type PayWayStatusRequest,
  type PeriodStatusRequest,
} from '@bo/contracts';
import { compactDay, platformToday } from '@bo/db';
import { mountOperation, type AuthPrincipal } from '@bo/service-kit';
import type { BackofficeDeps } from '../deps.ts';
import { refuseSupplierToken, supplierOf } from '../shared/supplier-scope.ts';
import { categoryReport, categoryReportRows } from './category-report.ts';
import { enterpriseReport, enterpriseReportRows } from './enterprise-report.ts';
import { attachmentHeader, sendWorkbook, type ExcelColumn } from './excel/excel-writer.ts';
import { categoryColumns, enterpriseColumns, goodsColumns, hourlyColumns, payWayColumns, periodColumns } from './excel/grid-columns.ts';
import { goodsReport, goodsReportRows } from './goods-report.ts';
import { hourlyReportGraph, hourlyReportList } from './hourly-report.ts';
import { payWayReport, payWayReportRows } from './pay-way-report.ts';
import { periodReportGraph, periodReportList } from './period-report.ts';

const list = <R>(payloads: R[]) => ({ totalCount: payloads.length, payloads });

/** The statistics operations: graph data, grid lists, Excel downloads and the category TOP-N. */
export function mountStatisticsRoutes(router: Router, deps: BackofficeDeps): void {
  const { knex, config } = deps;
  const op = findOperation;

  const scoped = <Q extends { entrNo?: string | undefined }>(q: Q, auth: AuthPrincipal | undefined): Q => ({
    ...q,
    entrNo: supplierOf(auth, q.entrNo),
  });
  const unscoped = <Q>(q: Q, auth: AuthPrincipal | undefined, report: string): Q => {
    refuseSupplierToken(auth, report);
    return q;
  };

  /** The rows are written as they arrive: aggregate lists come straight from a database stream. */
  /** The sheet name says what the report is: order status (01) or sales status (02). */
  const sheetName = (agrtGb: AgrtGb, report: string) => `${report} ${agrtGb === AGRT_GB.SALES ? '매출현황' : '주문현황'}`;

  const download = <R>(
    res: Response,
    sheetName: string,
    columns: ExcelColumn<R>[],
    rows: AsyncIterable<R> | Iterable<R>,
    fileName: string | undefined,
    defaultBase: string,
  ) => {
    const today = compactDay(platformToday(config.PLATFORM_TIME_ZONE, deps.clock?.() ?? new Date()));
    const contentDisposition = attachmentHeader(fileName, `${defaultBase}-${today}.xlsx`);
    return sendWorkbook(res, deps.logger, columns, rows, { sheetName, contentDisposition });
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
    const rows = await periodReportList(knex, scoped(query, auth));
    await download(
      res,
      sheetName(query.agrtGb, '기간별'),
      periodColumns(query.agrtGb, query.calendarType),
      rows.payloads,
      query.fileName,
      'period-status',
    );
  });
  mountOperation<HourlyStatusRequest>(router, op('getHourBasedStatusList'), ({ query, auth }) =>
    hourlyReportList(knex, scoped(query, auth)),
  );
  mountOperation<HourlyStatusRequest>(router, op('downloadHourBasedStatusExcel'), async ({ query, auth, res }) => {
    const rows = await hourlyReportList(knex, scoped(query, auth));
    await download(res, sheetName(query.agrtGb, '시간대별'), hourlyColumns(query.agrtGb), rows.payloads, query.fileName, 'hourly-status');
  });

  // Daily aggregates.
  mountOperation<CategoryStatusRequest>(router, op('getCategorySalesStatusTop'), ({ query, auth }) =>
    categoryReport(knex, unscoped(query, auth, 'category'), config.STATISTICS_TOP_N),
  );
  mountOperation<CategoryStatusRequest>(router, op('getCategoryStatusList'), async ({ query, auth }) =>
    list(await categoryReport(knex, unscoped(query, auth, 'category'))),
  );
  mountOperation<CategoryStatusRequest>(router, op('categoryStatusExcelDownload'), ({ query, auth, res }) =>
    download(
      res,
      '카테고리별 현황',
      categoryColumns(query.agrtGb),
      categoryReportRows(knex, unscoped(query, auth, 'category')),
      query.fileName,
      'category-status',
    ),
  );
  mountOperation<PayWayStatusRequest>(router, op('getPayWayStatusList'), async ({ query, auth }) =>
    list(await payWayReport(knex, unscoped(query, auth, 'payment-method'))),
  );
  mountOperation<PayWayStatusRequest>(router, op('payWayStatusExcelDownload'), ({ query, auth, res }) =>
    download(
      res,
      '결제수단별 현황',
      payWayColumns(query.agrtGb),
      payWayReportRows(knex, unscoped(query, auth, 'payment-method')),
      query.fileName,
      'pay-way-status',
    ),
  );
  mountOperation<GoodsStatusRequest>(router, op('getGoodsStatusList'), async ({ query, auth }) =>
    list(await goodsReport(knex, scoped(query, auth))),
  );
  mountOperation<GoodsStatusRequest>(router, op('downloadGoodsStatusExcel'), ({ query, auth, res }) =>
    download(res, '상품별 현황', goodsColumns(query.agrtGb), goodsReportRows(knex, scoped(query, auth)), query.fileName, 'goods-status'),
  );
  mountOperation<EnterpriseStatusRequest>(router, op('getEnterpriseStatusList'), async ({ query, auth }) =>
    list(await enterpriseReport(knex, scoped(query, auth))),
  );
  mountOperation<EnterpriseStatusRequest>(router, op('downloadEnterpriseStatusExcel'), ({ query, auth, res }) =>
    download(
      res,
      '공급사별 현황',
      enterpriseColumns(query.agrtGb),
      enterpriseReportRows(knex, scoped(query, auth)),
      query.fileName,
      'enterprise-status',
    ),
  );
}
