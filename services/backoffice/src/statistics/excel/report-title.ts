import { AGRT_GB, type AgrtGb } from '@bo/contracts';

/** The conditions of a statistics request that a download's title row reports. */
export interface ReportConditions {
  agrtGb: AgrtGb;
  calendarType?: 'date' | 'month';
  startDate?: string | undefined;
  endDate?: string | undefined;
  startMonth?: string | undefined;
  endMonth?: string | undefined;
  targetDate?: string | undefined;
  stdCtgNo?: string | undefined;
  mdId?: string | undefined;
  entrNo?: string | undefined;
  brandNo?: string | undefined;
  goodsNo?: string | undefined;
  siteNo?: string | undefined;
  payWayCd?: string | undefined;
}

/** The filters in the order the back-office search form shows them, with its labels. */
const FILTERS: [keyof ReportConditions, string][] = [
  ['siteNo', '사이트번호'],
  ['stdCtgNo', '표준카테고리번호'],
  ['mdId', 'MD ID'],
  ['entrNo', '공급사번호'],
  ['brandNo', '브랜드번호'],
  ['goodsNo', '상품번호'],
  ['payWayCd', '결제수단코드'],
];

/** Order status (`01`) or sales status (`02`). */
const statusName = (agrtGb: AgrtGb) => (agrtGb === AGRT_GB.SALES ? '매출현황' : '주문현황');

function period(q: ReportConditions): string {
  if (q.targetDate) return `조회일 ${q.targetDate}`;
  if (q.calendarType === 'month') return `조회기간 ${q.startMonth ?? ''} ~ ${q.endMonth ?? ''} (월별)`;
  return `조회기간 ${q.startDate ?? ''} ~ ${q.endDate ?? ''}${q.calendarType === 'date' ? ' (일별)' : ''}`;
}

/**
 * A sheet name that says what the report is (`상품별 주문현황`, at most Excel's 31 characters) and
 * the title rows above its table: the name, then the period, `agrtGb` and every filter given.
 */
export function reportTitle(report: string, q: ReportConditions): { sheetName: string; titleLines: string[] } {
  const sheetName = `${report} ${statusName(q.agrtGb)}`.slice(0, 31);
  const filters = FILTERS.filter(([key]) => q[key]).map(([key, label]) => `${label} ${q[key]}`);
  const conditions = [period(q), `집계구분 ${q.agrtGb} (${q.agrtGb === AGRT_GB.SALES ? '매출' : '주문'})`, ...filters];
  return { sheetName, titleLines: [sheetName, conditions.join(' | ')] };
}
