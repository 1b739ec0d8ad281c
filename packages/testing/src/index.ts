/**
 * `@bo/testing`: what the tests of every package share. Test-only: production code (contracts,
 * db, service-kit, services/*\/src) never imports it.
 */
export { ADMIN, bearer, handMadeJwt, hs256, nowSeconds, rs256, rsaKeyPair, TEST_JWT_SECRET, type TokenClaims } from './tokens.ts';
export { testLogger } from './test-logger.ts';
export { captureLogs, type CapturedLogs } from './log-capture.ts';
export { createTestDatabase, tableChecksums, TEST_SERVER_URL, type TestDatabase } from './test-database.ts';
export { holdTables, type TableHold } from './table-hold.ts';
export { answerOutcome, answerProblems } from './hostile-input/answer-properties.ts';
export { hostileAuthorization, hostileHeaderValue } from './hostile-input/hostile-headers.ts';
export { hostileRequest, hostileRunSettings } from './hostile-input/hostile-request.ts';
export { prototypeChanges, prototypeSnapshot, type PrototypeSnapshot } from './hostile-input/prototype-pollution.ts';
export type { HostileOptions, HostileRequest, SampleRequest } from './hostile-input/sample-request.ts';
export { sendRaw, type RawAnswer } from './hostile-input/send-raw.ts';
export { exitOf, freePort } from './child-process.ts';
export { waitFor, waitForJobs } from './wait-for.ts';
export { generateSourceData, insertSourceData, type EvtRow, type SourceData } from './aggregates/source-data.ts';
export { expectedDaily, expectedInflow, storedRows, type AggRow, type DailyKindName } from './aggregates/expected-daily.ts';
export {
  expectedInflowRollups,
  expectedPeriod,
  monthsOf,
  storedInflowRollups,
  storedMonths,
  storedPeriod,
  type FiledAs,
} from './aggregates/expected-period.ts';
export { startPrivateMariaDb, startPrivateRedis, type PrivateMariaDb, type PrivateRedis, type PrivateServer } from './private-servers.ts';
export { connectError, startService, timedRequest, type Answer, type ServiceName, type ServiceProcess } from './service-process.ts';
export { startReplicatedMariaDb, type ReplicatedMariaDb } from './servers/replicated-mariadb.ts';
export { renderGatewayConf, startNginxGateway, type GatewayUpstreams, type RunningGateway } from './servers/nginx-gateway.ts';
export { startRedisWithSentinel, type RedisWithSentinel } from './servers/redis-sentinel.ts';
