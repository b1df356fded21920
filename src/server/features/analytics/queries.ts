// The analytics feature's public surface: what the operators' console reads about the audience.
// Other features import this module only, never the feature's other files (enforced by ESLint).
export { audienceOverview, liveVisitors } from './audience-overview.ts';
