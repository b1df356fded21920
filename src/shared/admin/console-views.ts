import { adminPaths } from '../paths.ts';
import type { OperatorRole } from './roles.ts';

/**
 * The console's views, in the order the navigation shows them: the one list (each path is named
 * in src/shared/paths.ts, as every path is). The server serves
 * the console's shell at each path (src/server/features/console/console-page.ts), and the console draws each
 * view with the component its key names (src/client/admin/console-views.tsx, which the compiler
 * holds to exactly these keys). A new view is one entry here and its component there.
 */
export const consoleViewList = [
  { key: 'subscribers', path: adminPaths.subscribers, label: 'Subscribers', role: 'sender' },
  { key: 'audience', path: adminPaths.audience, label: 'Audience', role: 'viewer' },
  { key: 'broadcast', path: adminPaths.broadcast, label: 'Broadcast', role: 'viewer' },
  { key: 'sessions', path: adminPaths.sessions, label: 'Sessions', role: 'viewer' },
  { key: 'suppressions', path: adminPaths.suppressions, label: 'Suppressions', role: 'sender' },
  { key: 'allowlist', path: adminPaths.allowlist, label: 'Allowlist', role: 'sender' },
  { key: 'audit', path: adminPaths.audit, label: 'Audit log', role: 'sender' },
] as const satisfies readonly {
  key: string;
  path: string;
  label: string;
  /**
   * The least role shown this view. Only a convenience: the server refuses what the role may not
   * read or do (each route's requireRole), whatever the console shows.
   */
  role: OperatorRole;
}[];

export type ConsoleViewKey = (typeof consoleViewList)[number]['key'];

/** A view's path, by its key. */
export const consoleViewPath = (key: ConsoleViewKey): string =>
  consoleViewList.find((v) => v.key === key)?.path ?? adminPaths.home;

/** Every address that answers with the console's shell: /admin itself and each view. */
export const consoleDocumentPaths: readonly string[] = [adminPaths.home, ...consoleViewList.map((v) => v.path)];
