export { aggregateMigrations } from './migrations/index.ts';
