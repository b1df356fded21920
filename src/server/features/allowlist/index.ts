export { registerAllowlistAdminRoutes } from './allowlist-admin-routes.ts';
export { allowlistEnv, allowlistOptionsOf } from './allowlist-config.ts';
export { allowlistFeature } from './allowlist-plugin.ts';
