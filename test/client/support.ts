// Shared by the SDK tests: await a promise that must reject with a ClientError.
import { expect } from 'vitest';
import { ClientError } from '../../src/client/index.js';

/** The ClientError `p` rejects with (the test fails if it resolves or throws anything else). */
export async function caught(p: Promise<unknown>): Promise<ClientError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ClientError);
    return err as ClientError;
  }
  throw new Error('expected a ClientError');
}
