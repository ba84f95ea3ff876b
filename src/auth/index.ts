// The accounts area: users and passwords, database sessions, extensions with CDR Access, and the
// failed-authentication limiter.
export { AuthError, type AuthErrorCode } from './auth-error.js';
export { EXTENSION_CACHE_TTL_MS, ExtensionKeyChecker } from './extension-key-checker.js';
export {
  addExtension,
  checkExtensionKey,
  type ExtensionCredential,
  type ExtensionInfo,
  extensionKey,
  findExtensionCredential,
  listExtensions,
  removeExtension,
  setExtension,
  verifyExtensionKey,
} from './extensions.js';
export { DEFAULT_FAILURE_LIMITS, FailureLimiter, type FailureLimits } from './failure-limiter.js';
export { createSession, endSession, SESSION_COOKIE, SESSION_TTL_MS, sessionUser } from './sessions.js';
export {
  checkTokenInput,
  createToken,
  isTokenScope,
  listTokens,
  revokeToken,
  TOKEN_PREFIX,
  TOKEN_SCOPES,
  type TokenInfo,
  type TokenScope,
  tokenGrants,
  tokenOf,
} from './tokens.js';
export {
  ADMIN_USERNAME,
  addUser,
  checkAdminPassword,
  checkLogin,
  ensureAdmin,
  listUsers,
  removeUser,
  setUserAdmin,
  setUserPassword,
  type UserInfo,
} from './users.js';
