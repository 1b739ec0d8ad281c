export * from './connection.ts';
export * from './migrate.ts';
export * from './platform-time.ts';
export * from './lock-conflict.ts';
export * from './raw-sql.ts';
export * from './migrations/index.ts';
export * from './read-replicas.ts';
export * from './event-partitions.ts';
