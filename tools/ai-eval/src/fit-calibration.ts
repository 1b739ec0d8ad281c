import { parseArgs } from 'node:util';
import { boSourceMigrations } from '@bo/db';
import { createTestDatabase } from '@bo/testing';
import { CATEGORY_CALIBRATION, categoryThresholds, loadBackofficeConfig, type CategoryCalibration } from '@bo/backoffice/ai-eval-api';
import {
  candidateRows,
  chooseThreshold,
  decisionAt,
  fitLogistic,
  outOfFold,
  probability,
  reliability,
  type CandidateRow,
} from './calibration.ts';
import { loadEvalMasters, pct, readLabelled } from './evaluate.ts';

/**
 * `pnpm --filter @bo/ai-eval fit-calibration [--precision 0.955] [--folds 5]`: refits the category
 * calibration on the DEV half only (tools/ai-eval/data/labelled-dev.tsv) over the demo data and
 * prints the model to paste into services/backoffice/src/ai/autofill/category-confidence.ts
 * (`CATEGORY_CALIBRATION`) and the README, with a threshold chosen by cross-validation on dev:
 * the lowest probability whose out-of-fold accepted precision reaches `--precision`.
 * The test half is never read here.
 */
const USAGE = `usage: pnpm --filter @bo/ai-eval fit-calibration [--precision 0.955] [--folds 5]`;

function options(argv: string[]): { precision: number; folds: number } {
  try {
    const { values } = parseArgs({
      args: argv.filter((a) => a !== '--'),
      strict: true,
      options: { precision: { type: 'string' }, folds: { type: 'string' }, help: { type: 'boolean' } },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    return { precision: Number(values.precision ?? 0.955), folds: Number(values.folds ?? 5) };
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

const opts = options(process.argv.slice(2));
const config = loadBackofficeConfig();
const thresholds = categoryThresholds({ ...config, AI_CATEGORY_RULE: 'similarity' });
const db = await createTestDatabase('ai_fit', boSourceMigrations);
try {
  const { masters } = await loadEvalMasters(db, { fuzzyMin: config.AI_BRAND_FUZZY_MIN, goodsPerLeaf: config.AI_CATEGORY_GOODS_PER_LEAF });
  const dev = readLabelled(['dev']).get('dev')!;
  const inTree = dev.filter((c) => c.categories.length > 0).length;
  const outOfTree = dev.length - inTree;
  const rows = candidateRows(dev, masters, thresholds);
  const model = fitLogistic(rows);
  const tops = (rs: readonly CandidateRow[], m: CategoryCalibration) =>
    rs.filter((r) => r.rank === 0).map((r) => ({ p: probability(r.features, m), right: r.right, inTree: r.inTree }));
  // Out-of-fold predictions: each name scored by a model fitted without its fold.
  const oofAll = outOfFold(
    rows,
    dev.map((c) => c.name),
    opts.folds,
  );
  const oof = oofAll.filter((r) => r.rank === 0);

  console.log(`dev half: ${dev.length} names (${inTree} in-tree, ${outOfTree} out-of-tree), ${rows.length} candidate rows`);
  console.log(`fitted model: ${JSON.stringify(model)}`);
  console.log(`model in the code: ${JSON.stringify(CATEGORY_CALIBRATION)}`);
  const showBins = (label: string, rs: readonly { p: number; right: boolean }[]) => {
    console.log(`\nreliability, ${label}`);
    for (const b of reliability(rs))
      console.log(
        `  p ${b.from.toFixed(1)}–${b.to.toFixed(1)}  n ${String(b.n).padStart(4)}  mean p ${b.meanP.toFixed(3)}  observed ${b.rate.toFixed(3)}`,
      );
  };
  showBins(
    'all candidates, in-sample',
    rows.map((r) => ({ p: probability(r.features, model), right: r.right })),
  );
  showBins('top candidates, in-sample', tops(rows, model));
  showBins(`all candidates, out-of-fold (${opts.folds} folds)`, oofAll);
  showBins(`top candidates, out-of-fold (${opts.folds} folds)`, oof);

  console.log(`\nthreshold  out-of-fold: acceptance / precision / out-of-tree rejected   in-sample: acceptance / precision / rejected`);
  for (let t = 0.3; t <= 0.951; t += 0.05) {
    const o = decisionAt(oof, inTree, outOfTree, t);
    const i = decisionAt(tops(rows, model), inTree, outOfTree, t);
    console.log(
      `  p ≥ ${t.toFixed(2)}   ${pct(o.acceptance)} / ${pct(o.precision)} / ${pct(o.outOfTreeRejection)}      ${pct(i.acceptance)} / ${pct(i.precision)} / ${pct(i.outOfTreeRejection)}`,
    );
  }
  const chosen = chooseThreshold(rows, dev, opts);
  console.log(
    chosen === undefined
      ? `\nno threshold reaches out-of-fold precision ${pct(opts.precision)}`
      : `\nlowest threshold with out-of-fold precision ≥ ${pct(opts.precision)}: p ≥ ${chosen}`,
  );
} finally {
  await db.drop();
}
