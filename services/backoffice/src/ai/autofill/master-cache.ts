import type { Knex } from '@bo/db';
import type { Logger } from '@bo/service-kit';
import { loadMasterRows } from '../data-access/masters.ts';
import { buildMasterIndex, type MasterIndex } from './master-index.ts';

/**
 * Masters are small (hundreds of brands and leaves) and change rarely, and the goods names the
 * classifier learns from are capped per leaf, so auto-fill reads them from memory: loaded on first use, reloaded in the background once older than `refreshMs`
 * while requests keep using the previous copy. A failed reload keeps the old copy.
 */
export class MasterCache {
  private current?: MasterIndex;
  private loading?: Promise<MasterIndex>;

  constructor(
    private readonly knex: Knex,
    private readonly options: { refreshMs: number; fuzzyMin: number; goodsPerLeaf: number; logger: Logger },
  ) {}

  async get(): Promise<MasterIndex> {
    if (!this.current) return this.reload();
    if (Date.now() - this.current.loadedAt > this.options.refreshMs && !this.loading) {
      this.reload().catch((err: Error) =>
        this.options.logger.warn('AI master reload failed; keeping the loaded copy', { message: err.message }),
      );
    }
    return this.current;
  }

  /** Load now (also used by tests and the evaluation after they change masters). */
  reload(): Promise<MasterIndex> {
    this.loading ??= loadMasterRows(this.knex, { goodsPerLeaf: this.options.goodsPerLeaf })
      .then((rows) => buildMasterIndex(rows, { fuzzyMin: this.options.fuzzyMin, now: Date.now() }))
      .then((index) => {
        this.current = index;
        this.options.logger.info('AI masters loaded', {
          brands: index.brands.size,
          leaves: index.categories.size,
          goodsNames: index.categories.exampleCount,
        });
        return index;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}
