import type { Knex } from '@bo/db';
import { WORK_GROUPS } from '@bo/contracts';
import { AppError, type AuthPrincipal } from '@bo/service-kit';
import { supplierOf } from '../shared/supplier-scope.ts';
import { mappedCategoryCount, userWorkGroup } from './data-access/goods-counts.ts';
import type { DashboardScope, GoodsScope } from './model.ts';

/**
 * Who may see what, from the token and never widened by the query:
 * - a token with a supplier sees only that supplier; naming another one is refused (403);
 * - `userId` may name another user only for BO_ADMIN (403 otherwise); that user (or the caller)
 *   is the effective user, whose category mappings count;
 * - an effective user of work group BO_MD with mapped categories sees only goods of those
 *   categories and their descendants; one without mappings is not restricted, as the spec
 *   restricts only "when categories are mapped";
 * - a caller without a supplier in the token may narrow to one supplier with `entrNo`.
 */
export async function resolveDashboardScope(
  knex: Knex,
  auth: AuthPrincipal,
  query: { entrNo?: string | undefined; userId?: string | undefined },
): Promise<DashboardScope> {
  const entrNo = supplierOf(auth, query.entrNo);
  const namesOtherUser = query.userId !== undefined && query.userId !== auth.userId;
  if (namesOtherUser && auth.workGrpCd !== WORK_GROUPS.ADMIN) throw new AppError('USER_SCOPE');

  const userId = query.userId ?? auth.userId;
  // An admin looking at another user sees that user's category restriction, read from bo_user.
  const [workGrpCd, mapped] = await Promise.all([
    namesOtherUser ? userWorkGroup(knex, userId) : Promise.resolve(auth.workGrpCd),
    mappedCategoryCount(knex, userId),
  ]);
  const goods: GoodsScope = {
    ...(entrNo ? { entrNo } : {}),
    ...(workGrpCd === WORK_GROUPS.MD && mapped > 0 ? { mdUserId: userId } : {}),
  };
  return { goods, mappedCategoryCount: mapped };
}
