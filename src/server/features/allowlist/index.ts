export { registerAllowlistAdminRoutes } from './allowlist-admin-routes.ts';
export { allowlistEnv } from './allowlist-config.ts';
export { allowlistOptionsOf } from './allowlist-options.ts';
export { allowlistFeature } from './allowlist-plugin.ts';
