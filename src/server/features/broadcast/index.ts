export { brakeBroadcasts } from './broadcast-brake.ts';
export { broadcastComposer } from './broadcast-composer.ts';
export { broadcastEnv } from './broadcast-config.ts';
export { broadcastPolicyOf } from './broadcast-guard.ts';
export type { BroadcastPolicy } from './broadcast-guard.ts';
export { registerBroadcastRoutes } from './broadcast-routes.ts';
export { SampleWatch } from './broadcast-sample-watch.ts';
export { BROADCAST_KIND } from './broadcast-store.ts';
