export * from './measures.ts';
export * from './tables.ts';
export * from './ai-window.ts';
export * from './build-version.ts';
export { aggregateMigrations, boMigrations } from './migrations/index.ts';
