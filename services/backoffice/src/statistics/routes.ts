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
import { mountOperation, type AuthPrincipal } from '@bo/service-kit';
import type { BackofficeDeps } from '../app.ts';
import { categoryStatus, categoryStatusRows } from './category-status.ts';
import { enterpriseStatus, enterpriseStatusRows } from './enterprise-status.ts';
import { attachmentHeader, sendWorkbook, type ExcelColumn } from './excel-writer.ts';
import { goodsStatus, goodsStatusRows } from './goods-status.ts';
import { categoryColumns, enterpriseColumns, goodsColumns, hourlyColumns, payWayColumns, periodColumns } from './grid-columns.ts';
import { hourlyStatusGraph, hourlyStatusList } from './hourly-status.ts';
import { payWayStatus, payWayStatusRows } from './pay-way-status.ts';
import { periodStatusGraph, periodStatusList } from './period-status.ts';
import { refuseSupplierToken, supplierOf } from '../shared/supplier-scope.ts';

const list = <R>(payloads: R[]) => ({ totalCount: payloads.length, payloads });

/** The 17 statistics operations: graph data, grid lists, Excel downloads and the category TOP-N. */
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
    periodStatusGraph(knex, scoped(body, auth)),
  );
  mountOperation<PeriodStatusRequest>(router, op('getPeriodSalesStatusGraphData'), ({ query, auth }) =>
    periodStatusGraph(knex, scoped(query, auth)),
  );
  mountOperation<unknown, HourlyStatusRequest>(router, op('getHourBasedStatusGraphData'), ({ body, auth }) =>
    hourlyStatusGraph(knex, scoped(body, auth)),
  );
  mountOperation<HourlyStatusRequest>(router, op('getHourlySalesStatusGraphData'), ({ query, auth }) =>
    hourlyStatusGraph(knex, scoped(query, auth)),
  );

  // Period and hourly: the worker's period rollups for built days, raw events for the others (status-sources.ts).
  mountOperation<PeriodStatusRequest>(router, op('getPeriodBasedStatusList'), ({ query, auth }) => periodStatusList(knex, scoped(query, auth)));
  mountOperation<PeriodStatusRequest>(router, op('downloadPeriodBasedStatusExcel'), async ({ query, auth, res }) => {
    const rows = await periodStatusList(knex, scoped(query, auth));
    const sheet = query.agrtGb === '02' ? '기간별 매출현황' : '기간별 주문현황';
    await download(res, sheet, periodColumns(query.agrtGb, query.calendarType), rows.payloads, query.fileName, 'period-status');
  });
  mountOperation<HourlyStatusRequest>(router, op('getHourBasedStatusList'), ({ query, auth }) => hourlyStatusList(knex, scoped(query, auth)));
  mountOperation<HourlyStatusRequest>(router, op('downloadHourBasedStatusExcel'), async ({ query, auth, res }) => {
    const rows = await hourlyStatusList(knex, scoped(query, auth));
    const sheet = query.agrtGb === '02' ? '시간대별 매출현황' : '시간대별 주문현황';
    await download(res, sheet, hourlyColumns(query.agrtGb), rows.payloads, query.fileName, 'hourly-status');
  });

  // Daily aggregates.
  mountOperation<CategoryStatusRequest>(router, op('getCategorySalesStatusTop'), ({ query, auth }) =>
    categoryStatus(knex, unscoped(query, auth, 'category'), config.STATISTICS_TOP_N),
  );
  mountOperation<CategoryStatusRequest>(router, op('getCategoryStatusList'), async ({ query, auth }) =>
    list(await categoryStatus(knex, unscoped(query, auth, 'category'))),
  );
  mountOperation<CategoryStatusRequest>(router, op('categoryStatusExcelDownload'), ({ query, auth, res }) =>
    download(res, '카테고리별 현황', categoryColumns(query.agrtGb), categoryStatusRows(knex, unscoped(query, auth, 'category')), query.fileName, 'category-status'),
  );
  mountOperation<PayWayStatusRequest>(router, op('getPayWayStatusList'), async ({ query, auth }) =>
    list(await payWayStatus(knex, unscoped(query, auth, 'payment-method'))),
  );
  mountOperation<PayWayStatusRequest>(router, op('payWayStatusExcelDownload'), ({ query, auth, res }) =>
    download(res, '결제수단별 현황', payWayColumns(query.agrtGb), payWayStatusRows(knex, unscoped(query, auth, 'payment-method')), query.fileName, 'pay-way-status'),
  );
  mountOperation<GoodsStatusRequest>(router, op('getGoodsStatusList'), async ({ query, auth }) =>
    list(await goodsStatus(knex, scoped(query, auth))),
  );
  mountOperation<GoodsStatusRequest>(router, op('downloadGoodsStatusExcel'), ({ query, auth, res }) =>
    download(res, '상품별 현황', goodsColumns(query.agrtGb), goodsStatusRows(knex, scoped(query, auth)), query.fileName, 'goods-status'),
  );
  mountOperation<EnterpriseStatusRequest>(router, op('getEnterpriseStatusList'), async ({ query, auth }) =>
    list(await enterpriseStatus(knex, scoped(query, auth))),
  );
  mountOperation<EnterpriseStatusRequest>(router, op('downloadEnterpriseStatusExcel'), ({ query, auth, res }) =>
    download(res, '공급사별 현황', enterpriseColumns(query.agrtGb), enterpriseStatusRows(knex, scoped(query, auth)), query.fileName, 'enterprise-status'),
  );
}
