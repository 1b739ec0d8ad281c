/**
 * The development-only JWT secret, used when neither JWT variable is set outside production. A
 * module of its own (`@bo/service-kit/dev-secret`) so `pnpm dev:token` signs without loading the kit.
 */
export const DEV_JWT_SECRET = 'local-development-secret-do-not-use-in-production';
