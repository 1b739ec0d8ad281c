import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { expect } from 'chai';

const root = join(import.meta.dirname, '../../..');
const tracked = (...patterns: string[]) =>
  execFileSync('git', ['ls-files', ...patterns], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

/** Relative links of a markdown file: `[text](target)`, without web addresses and in-page anchors. */
function markdownLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^([a-z]+:|#)/i.test(t));
}

/** `something.md` and `docs/x.md §3` cited in source comments and strings. */
function citedDocs(text: string): { path: string; section?: string }[] {
  return [...text.matchAll(/(?<![\w.${}-])([A-Za-z0-9_./-]+\.md)(?![\w-])(?: §(\d+))?/g)].map((m) => ({ path: m[1]!, section: m[2] }));
}

/** Where a cited path points: next to the citing file, or from the repository root. */
const resolveCited = (fromFile: string, path: string) => [join(root, dirname(fromFile), path), join(root, path)].find(existsSync);

/** One `### n` section of docs/api-spec.md. */
const apiSpecSection = (n: string) =>
  readFileSync(join(root, 'docs/api-spec.md'), 'utf8')
    .split(/^### /m)
    .find((s) => s.startsWith(`${n} `)) ?? '';

describe('documentation travels with the code', () => {
  const markdownFiles = tracked('*.md').filter((f) => !f.includes('node_modules'));
  const sourceFiles = tracked('*.ts', '*.cjs', '*.js', '*.sh', '*.yaml', '*.yml', '.ci/run')
    // This file's own examples of broken citations are not citations.
    .filter((f) => f !== 'pnpm-lock.yaml' && f !== 'tests/tooling/test/doc-links.test.ts');

  it('when a README or doc links a relative file, then that file exists in the repository', () => {
    const broken = markdownFiles.flatMap((file) =>
      markdownLinks(readFileSync(join(root, file), 'utf8'))
        .filter((target) => !existsSync(join(root, dirname(file), decodeURIComponent(target.split('#')[0]!))))
        .map((target) => `${file} → ${target}`),
    );
    expect(broken).to.deep.equal([]);
  });

  it('when a source file cites a doc (and a section), then the doc exists and has that numbered section', () => {
    const broken = sourceFiles.flatMap((file) =>
      citedDocs(readFileSync(join(root, file), 'utf8')).flatMap(({ path, section }) => {
        const target = resolveCited(file, path);
        if (!target) return [`${file} cites ${path}, which does not exist`];
        if (section && !new RegExp(`^#+ ${section}\\.`, 'm').test(readFileSync(target, 'utf8')))
          return [`${file} cites ${path} §${section}, which has no section ${section}`];
        return [];
      }),
    );
    expect(broken).to.deep.equal([]);
    // The check reads real citations: the data model alone is cited over ten times.
    const citations = sourceFiles.flatMap((file) => citedDocs(readFileSync(join(root, file), 'utf8')).map((c) => c.path));
    expect(citations.filter((p) => p === 'docs/data-model.md').length).to.be.above(10);
  });

  it('when the README or docs name the specification, then they point inside the repository, never at ../shared', () => {
    const outside = markdownFiles.filter((file) => /\.\.\/shared|DATA-MODEL\.md/.test(readFileSync(join(root, file), 'utf8')));
    expect(outside).to.deep.equal([]);
  });

  it('when docs/data-model.md §4 lists the aggregate tables, then it names exactly those of packages/aggregates', () => {
    const aggNames = (text: string) => new Set(text.match(/\bagg_[a-z_]+\b/g));
    const described = aggNames(readFileSync(join(root, 'packages/aggregates/src/tables.ts'), 'utf8'));
    // The monthly list tables are named through a pattern in the doc: `…_monthly` next to each daily one.
    const section = readFileSync(join(root, 'docs/data-model.md'), 'utf8')
      .split(/^## /m)
      .find((s) => s.startsWith('4.'))!;
    const documented = aggNames(section.replace(/\b(agg_[a-z]+)_daily\b/g, '$1_daily $1_monthly'));
    expect([...described].sort()).to.deep.equal([...documented].sort());
  });

  it('when docs/architecture.md names a folder or file of the code, then it exists', () => {
    const text = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const paths = [...text.matchAll(/(?<![\w/.-])((?:services|packages)\/[a-z-]+(?:\/[a-z-]+)*\/?)/g)].map((m) => m[1]!);
    const files = [...text.matchAll(/`(?:[a-z-]+\/)*([a-z-]+\.ts)`/g)].map((m) => m[1]!);
    expect(paths.length).to.be.above(10);
    expect(paths.filter((p) => !existsSync(join(root, p)))).to.deep.equal([]);
    const sources = new Set(tracked('services/*', 'packages/*').map((f) => basename(f)));
    expect(files.length).to.be.above(5);
    const missingFiles = files.filter((f) => !sources.has(f));
    expect(missingFiles).to.deep.equal([]);
  });

  it('when the member service declares success headers, then docs/api-spec.md §4.5 documents each', () => {
    const operations = readFileSync(join(root, 'packages/contracts/src/operations.ts'), 'utf8');
    const headers = [...operations.matchAll(/_HEADER = '(X-[A-Za-z-]+)'/g)].map((m) => m[1]!);
    expect(headers).to.include.members(['X-Applied-Amount', 'X-Remaining-Amount']);
    const section = apiSpecSection('4.5');
    expect(headers.filter((h) => !section.includes(`\`${h}\``))).to.deep.equal([]);
  });

  it('when the checks meet a broken link or citation, then they report it', () => {
    expect(markdownLinks('see [spec](../shared/API.md) and [x](https://e.org) [y](#a)')).to.deep.equal(['../shared/API.md']);
    const cited = citedDocs('/** Source tables (DATA-MODEL.md section 2), docs/data-model.md §9, f.mdId */');
    expect(cited).to.deep.equal([
      { path: 'DATA-MODEL.md', section: undefined },
      { path: 'docs/data-model.md', section: '9' },
    ]);
    expect(resolveCited('packages/db/src/x.ts', 'DATA-MODEL.md')).to.equal(undefined);
  });
});
