// Closing the server ends every connection: idle keep-alive ones at once, and ones a client opened
// without sending a request (browsers preconnect) after the grace period, not a minute later.
import { connect } from 'node:net';
import { expect, test } from 'vitest';
import { startTestServer } from '../support/test-server.js';

test('close() drops a connection that never sent a request once the grace period is over', async () => {
  const server = await startTestServer('sqlite', { shutdownGraceMs: 200 });
  const port = Number(new URL(server.url).port);
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // Without the grace period Node keeps this socket until its headers timeout (60 s), past the
  // test's own timeout.
  await server.close();
  await ended;
  expect(socket.destroyed).toBe(true);
});

test('a request answered before close() leaves a keep-alive connection that close() ends at once', async () => {
  const server = await startTestServer('sqlite', { shutdownGraceMs: 60_000 });
  const { Agent, request } = await import('undici');
  const agent = new Agent({ connect: { rejectUnauthorized: false }, keepAliveTimeout: 60_000 });
  const answer = await request(`${server.url}/healthz`, { dispatcher: agent });
  expect(answer.statusCode).toBe(200);
  expect(await answer.body.json()).toEqual({ status: 'ok' });
  // The kept-alive connection is idle: close() must not wait out the 60 s grace period.
  await server.close();
  await agent.close();
});
