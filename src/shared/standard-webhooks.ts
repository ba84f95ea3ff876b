// Standard Webhooks signatures (https://www.standardwebhooks.com, as Svix and receivers' libraries
// verify them): `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature`, a
// space-separated list of `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret, so a
// secret can be rotated with both in use. Secrets are `whsec_` + base64 of 24-64 random bytes.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from './errors.js';

/** The prefix of a secret. */
export const SECRET_PREFIX = 'whsec_';
/** How old (or how far ahead) a timestamp may be when verified, by default: 5 minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A new secret: whsec_ and 32 random bytes in base64. */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The key bytes of a secret (`whsec_` optional); throws bad_secret saying what is wrong. */
export function secretKey(secret: string): Buffer {
  const body = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 !== 0)
    throw new AppError('bad_secret', 'secret: expected whsec_ followed by base64');
  const key = Buffer.from(body, 'base64');
  if (key.length < 24 || key.length > 64)
    throw new AppError('bad_secret', `secret: ${key.length} bytes; use 24 to 64 (branchgate generates 32)`);
  return key;
}

/** `v1,<base64 signature>` of one message under one secret. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a delivery, signed with every secret given (none: no signature header). */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const headers: Record<string, string> = { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds) };
  if (secrets.length > 0)
    headers['webhook-signature'] = secrets.map((s) => sign(s, id, timestampSeconds, body)).join(' ');
  return headers;
}

/** Why a delivery did not verify. */
export class WebhookVerificationError extends Error {}

/** The headers verification reads (names in lower case, as Node gives them). */
export type HeaderBag = Record<string, string | string[] | undefined>;

const one = (h: HeaderBag, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Verifies a delivery against any of `secrets`; throws WebhookVerificationError naming what failed
 * (a missing header, a timestamp outside the tolerance, no matching signature). Returns the id.
 */
export function verifyWebhook(
  headers: HeaderBag,
  body: string,
  secrets: readonly string[],
  nowSeconds: number = Math.floor(Date.now() / 1000),
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
): { id: string; timestamp: number } {
  const id = one(headers, 'webhook-id');
  const ts = one(headers, 'webhook-timestamp');
  const sig = one(headers, 'webhook-signature');
  if (!id || !ts || !sig)
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  if (!/^\d{1,12}$/.test(ts))
    throw new WebhookVerificationError(`webhook-timestamp "${ts}" is not unix seconds`);
  const timestamp = Number(ts);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds)
    throw new WebhookVerificationError(
      `webhook-timestamp ${timestamp} is ${nowSeconds - timestamp} s from now; at most ${toleranceSeconds} s allowed`,
    );
  const given = sig
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  for (const secret of secrets) {
    const expected = Buffer.from(sign(secret, id, timestamp, body).slice(3), 'base64');
    if (given.some((g) => g.length === expected.length && timingSafeEqual(g, expected)))
      return { id, timestamp };
  }
  throw new WebhookVerificationError('no signature matches the secret(s)');
}
