export { pagesPlugin, sendUnreadableAddressPage } from './pages-plugin.ts';
export { loadSiteBuild } from './site-build.ts';
export type { SiteBuild } from './site-build.ts';
export { siteFeature } from './site-plugin.ts';
