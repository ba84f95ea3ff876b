// The Master.csv follower: reads lines as Asterisk appends them and stores each exactly once.
//
//   fs.watch(dir) / poll timer -> tick: is PATH still the file we read (inode, head, size)?
//     yes -> read [offset, size) up to the last LF -> chunkRows -> store rows + new position in
//            one transaction (so a crash leaves both where they were)
//     no  -> renamed away (rename rotation) or truncated (copytruncate): finish the old content
//            from the rotated sibling (found by inode or by head), then start PATH from byte 0
// docs/cdr-ingest.md ("Master.csv follower") argues why no line is stored twice or skipped.
import { type FSWatcher, watch } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Clock, systemClock } from '../../../shared/clock.js';
import type { Store } from '../../../store/index.js';
import { createTimeParser } from '../asterisk-time.js';
import type { Layout } from '../columns.js';
import type { RecordingUrlBuilder } from '../recording-url.js';
import { createRowReader, type RowReader } from '../source-row.js';
import { chunkRows } from './csv-chunk-rows.js';
import type { CsvSourceSpec } from './csv-source-spec.js';
import { HEAD_BYTES, headHash } from './file-head.js';
import { GroupMemory } from './group-memory.js';
import { loadIngestPosition, saveIngestPosition } from './ingest-position.js';
import type { IngestSource, IngestSourceStatus } from './ingest-source.js';
import { type PollTimers, realTimers } from './poll-timers.js';
import { type FileInfo, rotatedSiblings, statOrNull } from './rotated-files.js';
import { type IngestLog, StatusTracker, silentIngestLog } from './status-tracker.js';
import { storeSourceRows } from './store-source-rows.js';

/** Where the follower is in a file: saved in ingest_position with the records it covers. */
export interface CsvPosition {
  dev: number;
  ino: number;
  /** The file's first headLength bytes hash to headHash; 0 and '' until a line was read. */
  headLength: number;
  headHash: string;
  /** Bytes consumed; always just after an LF (or the end of a finished rotated file). */
  offset: number;
  /** Physical lines consumed, to number the next one. */
  line: number;
  /** The layout detected from the first record (or given), kept across restarts and rotations. */
  layout: Layout | null;
}

/** What a follower needs. */
export interface CsvFollowerOptions {
  /** Builds recording_url (serve --recording-url); recordingfile as it is without. */
  recordingUrl?: RecordingUrlBuilder | undefined;
  spec: CsvSourceSpec;
  store: Store;
  clock?: Clock;
  log?: IngestLog;
  /** Poll interval in ms (default 1000); fs.watch wakes it sooner. */
  pollMs?: number;
  /** Watch the file's directory with fs.watch (default true); polling works without it. */
  watch?: boolean;
  timers?: PollTimers;
}

const CHUNK = 1 << 20;
const LF = 0x0a;

/** A store write failed: the source waits for the store, it is not a problem of the file. */
class StoreUnavailable extends Error {}

/** Follows one Master.csv; see the file comment. */
export class CsvFollower implements IngestSource {
  readonly id: string;
  /** Recent calls, for initial_destination. */
  private readonly groups = new GroupMemory();
  private readonly recordingUrl: RecordingUrlBuilder | undefined;
  private readonly spec: CsvSourceSpec;
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly log: IngestLog;
  private readonly pollMs: number;
  private readonly useWatch: boolean;
  private readonly timers: PollTimers;
  private readonly tracker: StatusTracker;
  private readonly readers = new Map<string, RowReader>();
  /** The last committed position; undefined until loaded from the store. */
  private pos: CsvPosition | null | undefined;
  private handle: FileHandle | null = null;
  /**
   * A position whose file need not be found again: it was read to its end through the handle
   * before being renamed or removed, or its loss was already reported.
   */
  private settled: string | null = null;
  private timer: unknown = null;
  private watcher: FSWatcher | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** start() was called: polls schedule the next one. */
  private started = false;
  private stopped = false;

  constructor(options: CsvFollowerOptions) {
    this.recordingUrl = options.recordingUrl;
    this.spec = options.spec;
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? silentIngestLog;
    this.pollMs = options.pollMs ?? 1000;
    this.useWatch = options.watch ?? true;
    this.timers = options.timers ?? realTimers;
    this.id = this.spec.id;
    this.tracker = new StatusTracker(this.id, 'csv', this.spec.path, this.clock, this.log);
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    if (this.useWatch) {
      try {
        this.watcher = watch(dirname(this.spec.path), () => this.wake());
        this.watcher.on('error', () => {
          this.watcher?.close();
          this.watcher = null;
        });
      } catch {
        this.watcher = null; // no directory yet, or no inotify: polling still works
      }
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.watcher?.close();
    this.watcher = null;
    await this.running;
    await this.closeHandle();
    this.tracker.setState('stopped');
  }

  status(): IngestSourceStatus {
    return this.tracker.snapshot();
  }

  /** Runs one poll now (also before start(), as tests do) and resolves when it and any poll it woke are done. */
  pollNow(): Promise<void> {
    return this.run();
  }

  private wake(): void {
    if (!this.started || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (!this.started || this.stopped) return;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      void this.run();
    }, ms);
  }

  private run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const work = (async () => {
      do {
        this.again = false;
        try {
          await this.tick();
        } catch (err) {
          await this.closeHandle();
          if (err instanceof StoreUnavailable) this.tracker.problem(err.message, 'store_unavailable');
          else this.tracker.problem(`${this.spec.path}: ${(err as Error).message}`, 'error');
        }
      } while (this.again && !this.stopped);
      // Cleared in the same turn as the loop's last check, so a wake() in between is not lost.
      this.running = null;
      this.schedule(this.pollMs);
    })();
    this.running = work;
    return work;
  }

  private async tick(): Promise<void> {
    if (this.pos === undefined) {
      try {
        this.pos = await loadIngestPosition<CsvPosition>(this.store.db, this.id);
      } catch (err) {
        throw new StoreUnavailable(`store unavailable: ${(err as Error).message}`);
      }
    }
    if (!this.handle && !(await this.openCurrent())) return;
    const handle = this.handle as FileHandle;
    const pos = this.pos as CsvPosition;
    const fst = await handle.stat();
    const st = await statOrNull(this.spec.path);
    if (!st || st.ino !== fst.ino || st.dev !== fst.dev) {
      // Renamed away or removed: what is left of it is read through the handle we hold.
      await this.readFile(handle, this.spec.path, fst.size, false);
      await this.closeHandle();
      this.settled = positionKey(this.pos as CsvPosition);
      if (st) this.again = true;
      else this.tracker.setState('file_missing');
      return;
    }
    if (fst.size < pos.offset || !(await this.sameHead(handle, pos))) {
      // Copied and truncated: the copy holds the rest; openCurrent finds it.
      await this.closeHandle();
      this.again = true;
      return;
    }
    await this.readFile(handle, this.spec.path, fst.size, false);
    this.tracker.setState('following');
  }

  /** Opens PATH, first finishing the file the saved position is in when PATH is another one. */
  private async openCurrent(): Promise<boolean> {
    const pos = this.pos ?? null;
    let handle: FileHandle;
    try {
      handle = await open(this.spec.path, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (pos) await this.catchUp(pos, null);
      this.tracker.setState('file_missing');
      return false;
    }
    try {
      const fst = await handle.stat();
      if (pos && fst.size >= pos.offset && (await this.matches(handle, fst, pos))) {
        this.handle = handle;
        return true;
      }
      if (pos) await this.catchUp(pos, fst);
      this.pos = { ...fresh(fst), layout: this.pos?.layout ?? null };
      this.handle = handle;
      return true;
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  private async matches(handle: FileHandle, fst: { dev: number; ino: number }, pos: CsvPosition) {
    if (pos.headLength > 0) return this.sameHead(handle, pos);
    return fst.dev === pos.dev && fst.ino === pos.ino;
  }

  private async sameHead(handle: FileHandle, pos: CsvPosition): Promise<boolean> {
    return pos.headLength === 0 || (await headHash(handle, pos.headLength)) === pos.headHash;
  }

  /**
   * Reads the rest of the file `pos` is in from its rotated sibling (found by head, else inode),
   * then every sibling rotated after it (several rotations while stopped), oldest first.
   */
  private async catchUp(pos: CsvPosition, current: { dev: number; ino: number } | null): Promise<void> {
    const siblings = (await rotatedSiblings(this.spec.path)).filter(
      (s) => !current || s.dev !== current.dev || s.ino !== current.ino,
    );
    let found: FileInfo | null = null;
    for (const s of siblings) {
      if (s.size < pos.offset) continue;
      const h = await open(s.path, 'r');
      try {
        if (await this.matches(h, s, pos)) {
          if (!found || (s.dev === pos.dev && s.ino === pos.ino)) found = s;
        }
      } finally {
        await h.close();
      }
    }
    if (!found) {
      const key = positionKey(pos);
      if (pos.offset > 0 && this.settled !== key) {
        this.settled = key;
        this.tracker.problem(
          `${this.spec.path} was replaced and the file read before (inode ${pos.ino}, read to byte ` +
            `${pos.offset}) is not next to it any more: lines written to it after that may be missing`,
        );
      }
      return;
    }
    await this.readWhole(found, pos);
    for (const s of siblings) {
      if (s.mtimeMs >= found.mtimeMs && s !== found) {
        await this.readWhole(s, { ...fresh(s), layout: this.pos?.layout ?? null });
      }
    }
  }

  private async readWhole(file: FileInfo, from: CsvPosition): Promise<void> {
    const h = await open(file.path, 'r');
    try {
      const st = await h.stat();
      this.pos = from;
      await this.readFile(h, file.path, st.size, true);
    } finally {
      await h.close();
    }
  }

  /**
   * Reads [pos.offset, size) of the file `this.pos` describes, a chunk at a time, storing each
   * chunk's rows with the position after it. `final`: the file will not grow (a rotated one), so
   * a last line without LF is read too.
   */
  private async readFile(handle: FileHandle, path: string, size: number, final: boolean): Promise<void> {
    for (;;) {
      const pos = this.pos as CsvPosition;
      if (pos.offset >= size || this.stopped) return;
      const want = Math.min(CHUNK, size - pos.offset);
      const buf = Buffer.alloc(want);
      const { bytesRead } = await handle.read(buf, 0, want, pos.offset);
      if (bytesRead === 0) return;
      const bytes = buf.subarray(0, bytesRead);
      const lastLf = bytes.lastIndexOf(LF);
      const atEnd = pos.offset + bytesRead >= size;
      let take: number;
      if (final && atEnd) take = bytesRead;
      else if (lastLf >= 0) take = lastLf + 1;
      else if (bytesRead < CHUNK)
        return; // an incomplete line: wait for its LF
      else {
        take = await this.skipOversized(handle, pos.offset + bytesRead, size);
        if (take < 0) return;
        await this.commit(path, bytes.subarray(0, 0), take, 1, `longer than ${CHUNK} bytes`, handle);
        continue;
      }
      await this.commit(path, bytes.subarray(0, take), take, 0, null, handle);
    }
  }

  // Bytes from the current offset to just after the next LF, or -1 when no LF yet.
  private async skipOversized(handle: FileHandle, from: number, size: number): Promise<number> {
    const pos = this.pos as CsvPosition;
    const buf = Buffer.alloc(CHUNK);
    for (let at = from; at < size; ) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(CHUNK, size - at), at);
      if (bytesRead === 0) break;
      const lf = buf.subarray(0, bytesRead).indexOf(LF);
      if (lf >= 0) return at + lf + 1 - pos.offset;
      at += bytesRead;
    }
    return -1;
  }

  /** Stores the rows of `bytes` (`take` bytes consumed) and the position after them, atomically. */
  private async commit(
    path: string,
    bytes: Buffer,
    take: number,
    extraLines: number,
    extraReason: string | null,
    handle: FileHandle,
  ): Promise<void> {
    const pos = this.pos as CsvPosition;
    const layout = this.spec.layout ?? pos.layout;
    const chunk = chunkRows(bytes, pos.line + 1, pos.offset === 0, layout, (l) => this.readerFor(l));
    const bad = extraReason ? [{ line: pos.line + 1, reason: extraReason }] : chunk.bad;
    const next: CsvPosition = {
      ...pos,
      offset: pos.offset + take,
      line: pos.line + chunk.lines + extraLines,
      layout: this.spec.layout ? null : chunk.layout,
    };
    if (next.headLength === 0 && next.offset > 0) {
      next.headLength = Math.min(HEAD_BYTES, next.offset);
      next.headHash = (await headHash(handle, next.headLength)) ?? '';
    }
    const now = this.clock.now();
    let stored: { inserted: number; duplicates: number };
    try {
      stored = await storeSourceRows(
        this.store,
        chunk.rows,
        (trx) => saveIngestPosition(trx, this.id, next, now),
        now,
        this.groups,
        this.recordingUrl,
      );
    } catch (err) {
      throw new StoreUnavailable(`store unavailable: ${(err as Error).message}`);
    }
    this.pos = next;
    let lastEnd: number | null = null;
    for (const r of chunk.rows) lastEnd = lastEnd === null ? r.row.end : Math.max(lastEnd, r.row.end);
    this.tracker.stored(stored.inserted, stored.duplicates, lastEnd);
    for (const b of bad) this.tracker.rejected(`${path}:${b.line}`, b.reason);
  }

  private readerFor(layout: Layout): RowReader {
    const key = layout.columns.join(',');
    let reader = this.readers.get(key);
    if (!reader) {
      reader = createRowReader(layout, createTimeParser(this.spec.timezone));
      this.readers.set(key, reader);
    }
    return reader;
  }

  private async closeHandle(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    await h?.close().catch(() => {
      // closing a handle whose file is gone: nothing left to release
    });
  }
}

function positionKey(p: CsvPosition): string {
  return `${p.dev}:${p.ino}:${p.headHash}:${p.offset}`;
}

function fresh(f: { dev: number; ino: number }): CsvPosition {
  return { dev: f.dev, ino: f.ino, headLength: 0, headHash: '', offset: 0, line: 0, layout: null };
}
