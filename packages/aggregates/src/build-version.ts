/**
 * The build version of a set of `agg_built_day` rows, as one SQL expression over the group:
 * how many builds, the latest build instant, the sum of their source marks and the sum of their
 * build instants (ms). Every build or rebuild rewrites its row in the transaction that writes
 * its aggregate rows, so the string changes whenever their numbers can change — the last sum
 * even when a rebuilt day's instant is not the latest (two builds committing out of order, a
 * clock set back). Formatted by the database, so no sum is rounded. The statistics answer cache
 * and the AI list's window sums both key on it.
 */
export const BUILD_VERSION_SQL =
  "CONCAT(COUNT(*), '.', COALESCE(DATE_FORMAT(MAX(built_dtm), '%Y%m%d%H%i%s%f'), '-'), '.', COALESCE(SUM(built_max_no), 0), '.', " +
  'COALESCE(SUM(TO_SECONDS(built_dtm) * 1000 + MICROSECOND(built_dtm) DIV 1000), 0))';
