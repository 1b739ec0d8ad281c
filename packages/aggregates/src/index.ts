export * from './measures.ts';
export * from './tables.ts';
export * from './ai-window.ts';
export * from './build-version.ts';
export * from './ten-days.ts';
export { aggregateMigrations, boMigrations } from './migrations/index.ts';
