// Standard Webhooks signing against an independent computation (node:crypto directly), rotation
// with two secrets, and verification refusing a tampered body, a wrong secret and stale times.
import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  generateSecret,
  secretKey,
  verifyWebhook,
  WebhookVerificationError,
  webhookHeaders,
} from '../../src/shared/standard-webhooks.js';

// The Standard Webhooks specification's own example secret.
const SPEC_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

function independent(secret: string, id: string, ts: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')}`;
}

describe('Standard Webhooks signatures', () => {
  const body = '{"type":"sms:received","timestamp":"2026-11-24T10:00:00.000Z","data":{"id":"7"}}';

  test('headers carry the id, the timestamp and one v1 signature per secret, as computed independently', () => {
    const second = generateSecret();
    const h = webhookHeaders([SPEC_SECRET, second], 'evt_7', 1795000000, body);
    expect(h['webhook-id']).toBe('evt_7');
    expect(h['webhook-timestamp']).toBe('1795000000');
    expect(h['webhook-signature']).toBe(
      `${independent(SPEC_SECRET, 'evt_7', 1795000000, body)} ${independent(second, 'evt_7', 1795000000, body)}`,
    );
    expect(webhookHeaders([], 'evt_7', 1795000000, body)).not.toHaveProperty('webhook-signature');
  });

  test('a generated secret is whsec_ and 32 random bytes', () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(a)).toHaveLength(32);
    expect(generateSecret()).not.toBe(a);
    expect(() => secretKey('whsec_short')).toThrow(/secret: /);
  });

  test('verification takes any secret of a rotation and refuses tampering, other secrets and stale times', () => {
    const old = generateSecret();
    const now = 1795000000;
    const h = webhookHeaders([generateSecret(), old], 'evt_9', now, body);
    expect(verifyWebhook(h, body, [old], now)).toEqual({ id: 'evt_9', timestamp: now });
    expect(() => verifyWebhook(h, `${body} `, [old], now)).toThrow('no signature matches the secret(s)');
    expect(() => verifyWebhook(h, body, [generateSecret()], now)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(h, body, [old], now + 301)).toThrow(
      'webhook-timestamp 1795000000 is 301 s from now; at most 300 s allowed',
    );
    expect(verifyWebhook(h, body, [old], now + 300).id).toBe('evt_9');
    expect(() => verifyWebhook({ 'webhook-id': 'x' }, body, [old], now)).toThrow(/missing webhook-id/);
  });
});
