export { createBackofficeApp, BO_PREFIX, type BackofficeDeps } from './app.ts';
export { loadBackofficeConfig, type BackofficeConfig } from './config.ts';
