import { selectRows, type Knex } from '@bo/db';

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
    const [counted] = await selectRows<{ n: number }>(this.knex, 'SELECT COUNT(*) AS n FROM goods');
    const n = Number(counted?.n ?? 0);
    let key: string | null = null;
    // Below a few hundred goods one statement is as fast as two.
    if (n >= 500) {
      const [middle] = await selectRows<{ k: string }>(this.knex, 'SELECT goods_no AS k FROM goods ORDER BY goods_no LIMIT 1 OFFSET ?', [
        Math.floor(n / 2),
      ]);
      key = middle?.k ?? null;
    }
    this.current = { key, at: Date.now() };
    return key;
  }
}
