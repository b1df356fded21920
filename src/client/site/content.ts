import { siteContent } from '../../../content/site-content.ts';
import type { SiteContent } from '../../shared/content-schema.ts';

// The build validated this file (scripts/check-content.ts). Only the server render reads it: the
// islands that run in the browser get what they need as props, so no copy ships as JavaScript.
export const content: SiteContent = siteContent;

/** The site's name as every page and email writes it: "Diamond Hand (DH)". */
export const siteName = `${content.name} (${content.ticker})`;
