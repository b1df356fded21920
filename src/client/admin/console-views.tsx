import type { ComponentType } from 'react';
import { consoleViewList, consoleViewPath, type ConsoleViewKey } from '../../shared/admin/console-views.ts';
import { roleAllows, type OperatorRole } from '../../shared/admin/roles.ts';
import { AllowlistView } from './views/allowlist-view.tsx';
import { AudienceView } from './views/audience-view.tsx';
import { AuditView } from './views/audit-view.tsx';
import { BroadcastView } from './views/broadcast-view.tsx';
import { SessionsView } from './views/sessions-view.tsx';
import { SubscribersView } from './views/subscribers-view.tsx';
import { SuppressionsView } from './views/suppressions-view.tsx';

// The views themselves are listed once, in src/shared/admin/console-views.ts (path, label, role,
// order); here each key gets its component, and a key without one does not compile.
const components: Record<ConsoleViewKey, ComponentType> = {
  subscribers: SubscribersView,
  audience: AudienceView,
  broadcast: BroadcastView,
  sessions: SessionsView,
  suppressions: SuppressionsView,
  allowlist: AllowlistView,
  audit: AuditView,
};

export interface ConsoleView {
  path: string;
  label: string;
  Component: ComponentType;
  /** The least role shown this view (the server decides what the role may do). */
  role: OperatorRole;
}

export const consoleViews: ConsoleView[] = consoleViewList.map((v) => ({
  path: v.path,
  label: v.label,
  role: v.role,
  Component: components[v.key],
}));

/** The views an operator with `role` is shown, in order. */
export const viewsFor = (role: OperatorRole): ConsoleView[] => consoleViews.filter((v) => roleAllows(role, v.role));

/** Where /admin itself lands: the first view the operator is shown. */
export const homeViewFor = (role: OperatorRole): string => viewsFor(role)[0]?.path ?? consoleViewPath('sessions');
