import type { Knex } from '@bo/db';
import { CODE_GROUPS, type QnaAnswerStatus } from '@bo/contracts';
import { countQuestions, newestQuestions } from './data-access/goods-counts.ts';
import { DASHBOARD_LIST_SIZE, type DashboardScope } from './model.ts';

/** Questions in scope (of one handling status when asked), and the newest of them with code names. */
export async function qnaAnswerStatus(knex: Knex, scope: DashboardScope, procStatCd: string | undefined): Promise<QnaAnswerStatus> {
  const [totalCnt, rows] = await Promise.all([
    countQuestions(knex, scope.goods, procStatCd),
    newestQuestions(knex, scope.goods, procStatCd, { type: CODE_GROUPS.QNA_TYPE, status: CODE_GROUPS.QNA_STATUS }, DASHBOARD_LIST_SIZE),
  ]);
  return {
    stdCtgNoCntByUserId: scope.mappedCategoryCount,
    totalCnt,
    // The legacy screen reads the total from each row as well.
    list: rows.map((row) => ({ ...row, totalCnt })),
  };
}
