export * from './connection.ts';
export * from './migrate.ts';
export * from './platform-time.ts';
export * from './lock-conflict.ts';
export * from './migrations/index.ts';
export * from './generator/masters.ts';
export { seedDatabases, BO_SOURCE_TABLES, MEMBER_TABLES, type SeedOptions, type SeedResult, type SeedProgress } from './generator/seed-databases.ts';
export { seedDemo, DEMO_SIZE } from './generator/seed-demo.ts';
export { createRandom, type Random } from './generator/random.ts';
