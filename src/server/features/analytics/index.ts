export { analyticsEnv } from './analytics-config.ts';
export { analyticsFeature } from './analytics-plugin.ts';
export { registerAudienceRoutes } from './audience-routes.ts';
