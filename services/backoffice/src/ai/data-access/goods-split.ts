import type { Knex } from '@bo/db';

/**
 * The middle goods number of the catalogue, so the list's scoring can read the two halves of
 * `goods` on two connections at once (MariaDB runs one statement on one core; the scoring is
 * CPU-bound). Kept for `refreshMs`: the split only balances the halves, any value is correct.
 */
export class GoodsSplit {
  private current?: { key: string | null; at: number };
  private loading?: Promise<string | null>;

  constructor(
    private readonly knex: Knex,
    private readonly refreshMs: number,
  ) {}

  async key(): Promise<string | null> {
    if (this.current && Date.now() - this.current.at <= this.refreshMs) return this.current.key;
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(): Promise<string | null> {
    const [counted] = (await this.knex.raw('SELECT COUNT(*) AS n FROM goods')) as unknown as [{ n: number }[]];
    const n = Number(counted[0]?.n ?? 0);
    // Below a few hundred goods one statement is as fast as two.
    const key =
      n < 500
        ? null
        : ((
            (await this.knex.raw('SELECT goods_no AS k FROM goods ORDER BY goods_no LIMIT 1 OFFSET ?', [Math.floor(n / 2)])) as unknown as [
              { k: string }[],
            ]
          )[0][0]?.k ?? null);
    this.current = { key, at: Date.now() };
    return key;
  }
}
