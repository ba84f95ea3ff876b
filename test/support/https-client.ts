// A tiny HTTPS/HTTP client for tests against real listeners with our self-signed certificate.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A response as tests look at it. */
export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON bodies field by field
  json(): any;
}

/** Sends one request; TLS certificates are not verified (the server's is self-signed). */
export function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<TestResponse> {
  const u = new URL(url);
  const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, {
    method: options.method ?? 'GET',
    headers: options.headers,
    rejectUnauthorized: false,
    agent: false,
  });
  return new Promise((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.end(options.body);
  });
}
