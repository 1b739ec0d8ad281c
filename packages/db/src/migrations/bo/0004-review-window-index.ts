import type { Migration } from '../../migrate.ts';

/**
 * The AI list counts each goods' low-rated reviews of its window (`star_score <= 2`, not deleted,
 * `reg_dtm` in the window). Through `idx_review_reg` the server fetched every review of the window
 * from the table to test its stars (~43 k rows, 200–300 ms at full scale); this index answers the
 * count alone: the low-star entries, their time tested in the index (7–13 ms).
 */
export const reviewWindowIndexMigration: Migration = {
  name: '0004-bo-review-window-index',
  up: async (knex) => {
    await knex.raw('ALTER TABLE goods_review ADD KEY idx_review_low (star_score, reg_dtm, del_yn, goods_no)');
  },
  down: async (knex) => {
    await knex.raw('ALTER TABLE goods_review DROP KEY idx_review_low');
  },
};
