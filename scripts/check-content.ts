// Validates a content file: `tsx scripts/check-content.ts [path]` (default content/site-content.ts).
// The build runs the same check first, so a bad field stops the build with its name.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseSiteContent, type SiteContent } from '../src/shared/content-schema.ts';
import { errorText } from '../src/server/lib/log-safe.ts';

export async function checkContentFile(file = 'content/site-content.ts'): Promise<SiteContent> {
  const mod = (await import(pathToFileURL(path.resolve(file)).href)) as { siteContent?: unknown };
  if (!('siteContent' in mod)) throw new Error(`${file} must export a constant named siteContent.`);
  return parseSiteContent(mod.siteContent, file);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2] ?? 'content/site-content.ts';
  checkContentFile(file).then(
    () => console.log(`${file} is valid.`),
    (error: unknown) => {
      console.error(errorText(error));
      process.exit(1);
    },
  );
}
