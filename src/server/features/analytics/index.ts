export { analyticsFeature } from './analytics-plugin.ts';
export { registerAudienceRoutes } from './audience-routes.ts';
