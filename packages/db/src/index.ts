export * from './connection.ts';
export * from './migrate.ts';
export * from './platform-time.ts';
export * from './migrations/index.ts';
export * from './generator/masters.ts';
