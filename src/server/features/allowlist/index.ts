export { registerAllowlistAdminRoutes } from './allowlist-admin-routes.ts';
export { allowlistFeature } from './allowlist-plugin.ts';
export { nodeContractCheck } from './signature-check.ts';
export { siweSite } from './siwe-message.ts';
