export { createMemberApp } from './app.ts';
export { MEMBER_PREFIX, type MemberDeps } from './deps.ts';
export { loadMemberConfig, type MemberConfig } from './config.ts';
export { createMemberKnex } from './database.ts';
