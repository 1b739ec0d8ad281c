export { createBackofficeApp } from './app.ts';
export { BO_PREFIX, type BackofficeDeps } from './deps.ts';
export { loadBackofficeConfig, readReplicaOptions, type BackofficeConfig } from './config.ts';
