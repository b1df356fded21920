export { adminFeature } from './console-plugin.ts';
