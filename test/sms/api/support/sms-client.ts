// Calls the SMS API over real HTTPS (self-signed certificate accepted) the way curl -k does.
import { send, type TestResponse } from '../../../support/https-client.js';

/** POSTs a JSON body (an object, or raw text to send as is) to an SMS endpoint. */
export function smsPost(
  baseUrl: string,
  path: string,
  body: unknown,
  contentType = 'application/json',
): Promise<TestResponse> {
  return send(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Polls fn until it returns a value other than undefined, or throws after timeoutMs. */
export async function eventually<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
