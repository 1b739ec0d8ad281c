export * from './measures.ts';
export * from './tables.ts';
export * from './ai-window.ts';
export { aggregateMigrations, boMigrations } from './migrations/index.ts';
