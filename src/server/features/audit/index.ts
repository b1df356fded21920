export { missingAuditTriggers, verifyAuditChain } from './audit-chain.ts';
export { audit, readAudit, recordAudit } from './audit.ts';
// The daily allowance of personal records an operator reads (decision 0029): subscribers' and
// referrers' details alike.
export { countPersonalReads, purgeOldReads, readsNote, type PersonalReads } from './personal-data-allowance.ts';
