import type { Knex } from '@bo/db';

/**
 * Adds the CTE `name(std_ctg_no)` to `q`: the categories `seed` selects and every category below
 * them in `std_ctg`. UNION (not UNION ALL) de-duplicates, which also ends the recursion should the
 * platform's tree ever hold a cycle. Attach it to the outermost query: MySQL 8 and MariaDB both let
 * derived tables and subqueries read it.
 */
export function withCategoryDescendants(q: Knex.QueryBuilder, name: string, seed: (tree: Knex.QueryBuilder) => Knex.QueryBuilder): void {
  q.withRecursive(name, ['std_ctg_no'], (tree) => {
    seed(tree).union((below) => {
      below.select('c.std_ctg_no').from('std_ctg as c').join(`${name} as t`, 'c.upr_std_ctg_no', 't.std_ctg_no');
    });
  });
}

/** Keeps the rows whose `column` is one of the categories of the CTE `name`. */
export const whereInCategories = (q: Knex.QueryBuilder, column: string, name: string): Knex.QueryBuilder =>
  q.whereIn(column, (sub) => {
    sub.select('std_ctg_no').from(name);
  });
