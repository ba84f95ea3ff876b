// The SMS API's `auth` check: the admin password, with failed attempts counted per client address
// (blocked with 429 after too many) and a verified password remembered briefly, as a salted hash,
// so a burst of calls does not pay for scrypt each time (a changed password counts within 30 s).
// Without `auth`, an admin session (the console) or an API token with the `sms` scope is accepted.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkAdminPassword, tokenGrants } from '../auth/index.js';
import type { AppDeps } from '../server/deps.js';
import { SmsError } from './sms-error.js';

const CACHE_MS = 30_000;

/** Checks a request's `auth`; throws SmsError unauthorized / too_many_attempts. */
export type SmsAuth = (
  request: FastifyRequest,
  reply: FastifyReply,
  body: Record<string, unknown>,
) => Promise<void>;

/** Builds the check for one app. */
export function createSmsAuth(deps: AppDeps): SmsAuth {
  const salt = randomBytes(32);
  let verified: { key: string; untilMs: number } | undefined;
  return async (request, reply, body) => {
    const client = `sms:${request.ip}`;
    const wait = await deps.failures.blockedFor(client);
    if (wait > 0) {
      reply.header('Retry-After', String(wait));
      throw new SmsError('too_many_attempts', `too many failed authentications; try again in ${wait} s`);
    }
    const auth = body.auth;
    // Without `auth`, the admin console's session or an API token with the `sms` scope will do.
    if (auth === undefined) {
      const token = await deps.apiToken(request);
      if (token ? tokenGrants(token, 'sms') : (await deps.sessionUser(request))?.isAdmin === true) return;
    }
    if (typeof auth !== 'string' || auth === '') {
      await deps.failures.fail(client);
      throw new SmsError(
        'unauthorized',
        auth === undefined
          ? 'auth: missing; give the admin password'
          : 'auth: must be the admin password, a non-empty string',
      );
    }
    const key = createHash('sha256').update(salt).update(auth).digest('hex');
    const now = deps.clock.now();
    if (verified && verified.key === key && verified.untilMs > now) return;
    if (!(await checkAdminPassword(deps.store, auth))) {
      await deps.failures.fail(client);
      throw new SmsError('unauthorized', 'auth: wrong password');
    }
    verified = { key, untilMs: now + CACHE_MS };
    await deps.failures.succeed(client);
  };
}
