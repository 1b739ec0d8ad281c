import { createLogger, type Logger } from '@bo/service-kit';

/** A logger that keeps quiet unless a test fails badly; TEST_LOG_LEVEL overrides it. */
export const testLogger = (service = 'test'): Logger => createLogger(service, process.env.TEST_LOG_LEVEL ?? 'error');
