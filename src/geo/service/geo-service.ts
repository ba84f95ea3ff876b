// The server's geo lookups: the site and IP files given by `serve --geosite/--geoip`, or set on the
// console (saved in the store, key "geo_files", and then preferred to the flags), compiled into
// one GeoLookup that requests read. A reload (a file changed on disk, SIGHUP, new paths) compiles
// a new GeoLookup beside the old one and swaps the reference only when it is whole: a request in
// flight keeps the one it took, and a file that fails to load leaves the old lookup answering and
// its error in the status.
import { type Stats, unwatchFile, watchFile } from 'node:fs';
import type { Clock } from '../../shared/clock.js';
import type { Store } from '../../store/index.js';
import { GeoError } from '../errors.js';
import { GeoLookup, type LoadedGeoFile } from './geo-lookup.js';

/** The settings key of the paths set on the console. */
export const GEO_FILES_SETTINGS_KEY = 'geo_files';

/** Which file of each kind is used, and who chose it. */
export interface GeoFileChoice {
  path: string;
  from: 'flag' | 'console';
}

/** What the status endpoint and the console show. */
export interface GeoServiceStatus {
  site: GeoFileChoice | null;
  ip: GeoFileChoice | null;
  /** The files the lookup answering now was built from (empty before the first good load). */
  files: readonly LoadedGeoFile[];
  loadedAtMs: number | null;
  loadMs: number | null;
  reloads: number;
  /** The last load that failed (the previous lookup kept answering), cleared by a good load. */
  lastError: { message: string; atMs: number } | null;
}

/** Where log lines go (the server's logger). */
export interface GeoLog {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** What the service is built from. */
export interface GeoServiceOptions {
  store: Store;
  clock: Clock;
  /** --geosite / --geoip */
  site?: string | undefined;
  ip?: string | undefined;
  /** How often the files are checked for changes (default 2 s; 0 turns watching off). */
  watchIntervalMs?: number;
  /** Changes within this time are taken in one reload (default 300 ms): a file being copied in place settles first. */
  settleMs?: number;
}

interface StoredPaths {
  site?: string | null;
  ip?: string | null;
}

function parseStored(value: string | undefined): StoredPaths {
  if (!value) return {};
  try {
    const v = JSON.parse(value) as StoredPaths;
    return typeof v === 'object' && v !== null ? v : {};
  } catch {
    return {};
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Compiled lookups over the configured files, reloaded when they change. */
export class GeoService {
  private lookupNow: GeoLookup | undefined;
  private choice: { site: GeoFileChoice | null; ip: GeoFileChoice | null } = { site: null, ip: null };
  private loadedAtMs: number | null = null;
  private loadMs: number | null = null;
  private reloads = 0;
  private lastError: GeoServiceStatus['lastError'] = null;
  private watched: { path: string; listener: (now: Stats, before: Stats) => void }[] = [];
  private settleTimer: NodeJS.Timeout | undefined;
  private log: GeoLog | undefined;

  constructor(private readonly options: GeoServiceOptions) {}

  /** The lookup answering now, or undefined while no file is configured or none loaded yet. */
  current(): GeoLookup | undefined {
    return this.lookupNow;
  }

  status(): GeoServiceStatus {
    return {
      site: this.choice.site,
      ip: this.choice.ip,
      files: this.lookupNow?.files ?? [],
      loadedAtMs: this.loadedAtMs,
      loadMs: this.loadMs,
      reloads: this.reloads,
      lastError: this.lastError,
    };
  }

  /** Reads the console's choice, loads the files (a failure is logged and kept in the status, not thrown) and starts watching. */
  async start(log?: GeoLog): Promise<void> {
    this.log = log;
    this.choice = await this.effectiveChoice();
    if (this.choice.site || this.choice.ip) this.reload('start');
    this.watch();
  }

  /** Builds a new lookup from the chosen files; true when it now answers. */
  reload(reason: string): boolean {
    const { site, ip } = this.choice;
    if (!site && !ip) {
      this.lookupNow = undefined;
      return false;
    }
    const started = performance.now();
    try {
      const next = GeoLookup.load({ site: site?.path, ip: ip?.path });
      this.lookupNow = next;
      this.loadMs = Math.round(performance.now() - started);
      this.loadedAtMs = this.options.clock.now();
      this.lastError = null;
      this.reloads++;
      this.log?.info({ reason, files: next.files.map((f) => f.path), ms: this.loadMs }, 'geo files loaded');
      return true;
    } catch (err) {
      this.lastError = { message: messageOf(err), atMs: this.options.clock.now() };
      this.log?.error(
        { reason, err: this.lastError.message },
        'geo files not loaded; the previous ones answer',
      );
      return false;
    }
  }

  /**
   * Sets the files from the console or REST: loads them first and saves only when they load, so a
   * bad path changes nothing. null for a kind goes back to its flag (or none).
   */
  async setFiles(paths: StoredPaths, nowMs: number): Promise<GeoServiceStatus> {
    const stored = { ...(await this.readStored()), ...paths };
    const next = this.choiceFrom(stored);
    if (!next.site && !next.ip) throw new GeoError('usage', 'give a site file, an IP file, or both');
    const started = performance.now();
    const lookup = GeoLookup.load({ site: next.site?.path, ip: next.ip?.path });
    const value = JSON.stringify({ site: stored.site ?? null, ip: stored.ip ?? null });
    await this.options.store.db
      .insertInto('settings')
      .values({ key: GEO_FILES_SETTINGS_KEY, value, updated_at_ms: nowMs })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at_ms: nowMs }))
      .execute();
    this.choice = next;
    this.lookupNow = lookup;
    this.loadMs = Math.round(performance.now() - started);
    this.loadedAtMs = this.options.clock.now();
    this.lastError = null;
    this.reloads++;
    this.unwatch();
    this.watch();
    return this.status();
  }

  /** Stops watching the files. */
  async stop(): Promise<void> {
    this.unwatch();
  }

  private async readStored(): Promise<StoredPaths> {
    const row = await this.options.store.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', GEO_FILES_SETTINGS_KEY)
      .executeTakeFirst();
    return parseStored(row?.value);
  }

  private choiceFrom(stored: StoredPaths): { site: GeoFileChoice | null; ip: GeoFileChoice | null } {
    const pick = (console: string | null | undefined, flag: string | undefined): GeoFileChoice | null => {
      if (console) return { path: console, from: 'console' };
      if (flag) return { path: flag, from: 'flag' };
      return null;
    };
    return { site: pick(stored.site, this.options.site), ip: pick(stored.ip, this.options.ip) };
  }

  private async effectiveChoice() {
    return this.choiceFrom(await this.readStored());
  }

  private watch(): void {
    const interval = this.options.watchIntervalMs ?? 2000;
    if (interval <= 0) return;
    for (const c of [this.choice.site, this.choice.ip]) {
      if (!c) continue;
      const path = c.path;
      // Polling stat, not inotify: a file replaced by rename (how builders write) is still seen.
      const listener = (now: Stats, before: Stats) => {
        if (now.mtimeMs === before.mtimeMs && now.size === before.size && now.ino === before.ino) return;
        this.scheduleReload(`${path} changed`);
      };
      watchFile(path, { interval, persistent: false }, listener);
      this.watched.push({ path, listener });
    }
  }

  private scheduleReload(reason: string): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      this.reload(reason);
    }, this.options.settleMs ?? 300);
    this.settleTimer.unref();
  }

  private unwatch(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    for (const w of this.watched.splice(0)) unwatchFile(w.path, w.listener);
  }
}
