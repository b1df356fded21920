export { registerSubscriberRoutes } from './subscriber-routes.ts';
export { eraseSubscriber } from './subscriber-actions.ts';
export { listSubscribers } from './subscriber-list.ts';
export { subscribersEnv } from './subscribers-config.ts';
export { subscribersCsv } from './subscriber-csv.ts';
