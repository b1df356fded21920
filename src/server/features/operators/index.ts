export { askForFreshProof, hasFreshProof, isRoleGuard, operatorOf, protectConsoleApi, requireRole } from './guards.ts';
export {
  OperatorError,
  addOperator,
  changePassword,
  findOperator,
  hasOperators,
  listOperators,
  operatorKey,
  removeOperator,
  resetTwoFactor,
  setRole,
} from './operators.ts';
export type { NewFactors } from './operators.ts';
export { registerPasskeyRoutes } from './passkey-routes.ts';
export { purgeExpiredPasskeyChallenges } from './passkey-store.ts';
export { relyingPartyFor } from './passkeys.ts';
export { MIN_PASSWORD_LENGTH, passwordProblem } from './passwords.ts';
export { registerSessionRoutes } from './session-routes.ts';
export { purgeExpired } from './sessions.ts';
export { signInCounters } from './sign-in-backoff.ts';
export { registerSignInRoutes } from './sign-in-routes.ts';
export { totpUri } from './totp.ts';
