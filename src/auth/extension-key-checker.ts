// Pull-key checks with a short-lived cache of extension credentials: CDR clients poll, and a
// database round trip per request would cost a third of the pull route's throughput. A change to
// an extension (new secret, CDR Access removed) takes effect on every instance within the TTL.
import type { Clock } from '../shared/clock.js';
import type { Store } from '../store/index.js';
import { type ExtensionCredential, findExtensionCredential, verifyExtensionKey } from './extensions.js';

/** How long a looked-up credential is reused: 1 second. */
export const EXTENSION_CACHE_TTL_MS = 1000;
const MAX_ENTRIES = 10_000;

/** Checks pull keys, caching each extension's credential (or its absence) for a short time. */
export class ExtensionKeyChecker {
  private readonly cache = new Map<
    string,
    { credential: ExtensionCredential | undefined; expiresAt: number }
  >();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly ttlMs: number = EXTENSION_CACHE_TTL_MS,
  ) {}

  /** 'ok', 'no_access' or 'bad', as verifyExtensionKey. */
  async check(number: string, key: string): Promise<'ok' | 'no_access' | 'bad'> {
    const now = this.clock.now();
    let hit = this.cache.get(number);
    if (!hit || hit.expiresAt <= now) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
      hit = { credential: await findExtensionCredential(this.store, number), expiresAt: now + this.ttlMs };
      this.cache.set(number, hit);
    }
    return verifyExtensionKey(hit.credential, key);
  }
}
