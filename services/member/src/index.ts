export { createMemberApp, MEMBER_PREFIX, type MemberDeps } from './app.ts';
export { loadMemberConfig, type MemberConfig } from './config.ts';
export { createMemberKnex } from './database.ts';
