export { missingAuditTriggers, verifyAuditChain } from './audit-chain.ts';
export { audit, readAudit, recordAudit } from './audit.ts';
