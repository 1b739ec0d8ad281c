import { expect } from 'chai';
import { queueBoardCredentials, loadCliConfig, loadWorkerConfig } from '../src/config.ts';

const problemsOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a configuration error');
};

describe('worker configuration', () => {
  it('when nothing is set in development, then the defaults apply and the dashboard falls back to the development credentials', () => {
    const config = loadWorkerConfig({ NODE_ENV: 'development' });
    expect(config).to.include({
      WORKER_PORT: 3003,
      WORKER_CONCURRENCY: 2,
      AGG_DAILY_CRON: '0 9 * * *',
      AGG_HOURLY_CRON: '5 * * * *',
      AGG_RECONCILE: true,
      PLATFORM_TIME_ZONE: 'Asia/Seoul',
      REDIS_PREFIX: 'bo',
    });
    expect(queueBoardCredentials(config).isDevDefault).to.equal(true);
  });

  for (const env of ['production', 'test']) {
    it(`when the dashboard credentials are missing in ${env}, then the worker refuses to start naming both variables`, () => {
      const message = problemsOf(() => loadWorkerConfig({ NODE_ENV: env }));
      expect(message).to.include('QUEUE_DASHBOARD_USER is required').and.to.include('QUEUE_DASHBOARD_PASSWORD is required');
    });
  }

  it('when the credentials are set, then they are used as given', () => {
    const config = loadWorkerConfig({
      NODE_ENV: 'production',
      QUEUE_DASHBOARD_USER: 'ops',
      QUEUE_DASHBOARD_PASSWORD: 'long-enough-secret',
    });
    expect(queueBoardCredentials(config)).to.deep.equal({ user: 'ops', password: 'long-enough-secret', isDevDefault: false });
  });

  it('when a schedule is not a cron pattern or a flag not a boolean, then the message names the variable', () => {
    expect(problemsOf(() => loadWorkerConfig({ NODE_ENV: 'development', AGG_DAILY_CRON: 'every day at nine' }))).to.include(
      'AGG_DAILY_CRON must be a cron pattern',
    );
    expect(problemsOf(() => loadWorkerConfig({ NODE_ENV: 'development', AGG_RECONCILE: 'maybe' }))).to.match(
      /AGG_RECONCILE must be boolean/,
    );
  });

  it('when the CLI starts in production, then it needs no dashboard credentials', () => {
    expect(loadCliConfig({ NODE_ENV: 'production' })).to.include({ REDIS_PREFIX: 'bo', AGG_RERUN_MAX_DAYS: 366 });
  });
});
