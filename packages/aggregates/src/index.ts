export * from './measures.ts';
export * from './tables.ts';
export { aggregateMigrations, boMigrations } from './migrations/index.ts';
