import type { Migration } from '../../migrate.ts';

/**
 * The goods list names every goods it lists (757 for one supplier over 31 days, ~17,500 without
 * a filter) by a lookup into `goods` per goods, whose ~40-column rows made the names a quarter of
 * its statement (31 days without a filter, alone at full scale: 208 ms without them, 274 with).
 * From an index holding only the code, the name and the image, the same lookups cost less: 274
 * -> 245 ms; one supplier under 8 loops p50 45.3 -> 43.7 ms, p95 66.1 -> 61.6 ms. The optimizer
 * prefers the primary key's single-row lookup, so the list names the index (list-sums.ts).
 */
export const goodsLabelIndexMigration: Migration = {
  name: '0006-bo-goods-label-index',
  up: async (knex) => {
    await knex.raw('ALTER TABLE goods ADD KEY idx_goods_label (goods_no, goods_nm, img_path)');
  },
  down: async (knex) => {
    await knex.raw('ALTER TABLE goods DROP KEY idx_goods_label');
  },
};
