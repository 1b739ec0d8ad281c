/**
 * `@bo/data-generator`: deterministic demo and benchmark data for the bo and member databases
 * (`pnpm db:seed`, the start script's demo set, the benchmark, the AI evaluation).
 */
export * from './masters.ts';
export { seedDatabases, BO_SOURCE_TABLES, MEMBER_TABLES, type SeedOptions, type SeedResult, type SeedProgress } from './seed-databases.ts';
export { seedDemo, DEMO_SIZE } from './seed-demo.ts';
export { createRandom, type Random } from './random.ts';
