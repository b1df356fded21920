import { adminPaths } from '../paths.ts';

/**
 * The console's views: every path in adminPaths (src/shared/paths.ts) but /admin itself and the
 * console's files. The server serves the console's shell at each (src/server/features/console/
 * console-page.ts); the console lists each view's label, least role and component, in the order
 * its navigation shows them, in src/client/admin/console/console-views.tsx, which the compiler
 * holds to exactly these keys. A new view is its path there and its line in that list.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- assets is named only to be left out
const { home, assets, ...views } = adminPaths;

/** Each view's path, by its key. */
export const consoleViewPaths = views;

export type ConsoleViewKey = keyof typeof consoleViewPaths;

/** A view's path, by its key. */
export const consoleViewPath = (key: ConsoleViewKey): string => consoleViewPaths[key];

/** Every address that answers with the console's shell: /admin itself and each view. */
export const consoleDocumentPaths: readonly string[] = [home, ...Object.values(consoleViewPaths)];
