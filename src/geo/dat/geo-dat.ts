// Reads a geosite.dat / geoip.dat without decoding what is not asked for:
//   open -> scan the top-level entries (field 1, length-delimited), reading only each entry's
//   header and country_code -> index {code, offset, length} -> decode one entry on demand.
// The kind (site or ip) is told from the first rule's shape. Corrupt or truncated data throws
// GeoError('dat_corrupt') with the byte offset.

import { GeoError } from '../errors.js';
import { decodeGeoIp, type GeoIpHeader, type GeoIpSink, scanGeoIp } from '../ip/ip-decoder.js';
import type { IpList, SiteList } from '../model.js';
import { decodeGeoSite, type GeoSiteSink, scanGeoSite } from '../site/site-decoder.js';
import { type ByteSource, fileSource, memorySource } from '../wire/byte-source.js';
import { WireReader } from '../wire/wire-reader.js';

/** What a .dat file holds: domain lists, IP lists, or nothing that tells (no rules at all). */
export type DatKind = 'site' | 'ip' | 'empty';

/** One top-level entry: its code and where its message bytes are (after tag and length). */
export interface DatEntry {
  readonly code: string;
  readonly offset: number;
  readonly length: number;
}

const HEADER_WINDOW = 96;
/** The least an entry read asks of the file, so that small entries in a row come from one read. */
const READ_AHEAD = 64 * 1024;

/** An opened .dat file: entry index plus on-demand decoding of single lists. */
export class GeoDat {
  /** Entries in file order. */
  readonly entries: readonly DatEntry[];
  /** Whether the file holds site or IP lists. */
  readonly kind: DatKind;
  private readonly byCode: Map<string, DatEntry>;
  private readonly allByCode = new Map<string, DatEntry[]>();
  /** Read-ahead over the file for entries (the headers read at open had their own). */
  private readonly reads: ReadWindow;

  private constructor(
    private readonly source: ByteSource,
    /** A name for messages (the path). */
    readonly name: string,
  ) {
    this.reads = new ReadWindow(source);
    const { entries, kind } = scan(source, new ReadWindow(source));
    this.entries = entries;
    this.kind = kind;
    this.byCode = new Map();
    for (const e of entries) {
      const code = e.code.toUpperCase();
      this.byCode.set(code, e);
      const same = this.allByCode.get(code);
      if (same) same.push(e);
      else this.allByCode.set(code, [e]);
    }
  }

  /**
   * The codes of the file, upper case, each once, in order of first appearance, with every entry
   * that carries it (foreign files may hold a code twice; it counts as one list).
   */
  lists(): ReadonlyMap<string, readonly DatEntry[]> {
    return this.allByCode;
  }

  /** Opens a file and indexes its entries (reads only entry headers). */
  static open(path: string): GeoDat {
    let source: ByteSource;
    try {
      source = fileSource(path);
    } catch (err) {
      throw new GeoError('file_unreadable', `cannot open ${path}: ${(err as Error).message}`);
    }
    try {
      return new GeoDat(source, path);
    } catch (err) {
      source.close();
      if (err instanceof GeoError) throw new GeoError(err.code, `${path}: ${err.message}`);
      throw err;
    }
  }

  /** Indexes bytes already in memory. */
  static fromBytes(bytes: Uint8Array, name = '<memory>'): GeoDat {
    return named(name, () => new GeoDat(memorySource(bytes), name));
  }

  /** Indexes any byte source (a file, memory, or a wrapper that counts or limits reads). */
  static fromSource(source: ByteSource, name: string): GeoDat {
    return named(name, () => new GeoDat(source, name));
  }

  /** Size of the file in bytes. */
  get size(): number {
    return this.source.size;
  }

  /** The entry of a code (case-insensitive), if present. */
  find(code: string): DatEntry | undefined {
    return this.byCode.get(code.toUpperCase());
  }

  /** The entry of a code, or a code_not_found error listing how to see the codes. */
  get(code: string): DatEntry {
    const entry = this.find(code);
    if (!entry) {
      throw new GeoError(
        'code_not_found',
        `${this.name}: no list "${code}" (run \`branchgate geo info\` to list codes)`,
      );
    }
    return entry;
  }

  /** The raw message bytes of an entry. */
  entryBytes(entry: DatEntry): Uint8Array {
    return this.source.read(entry.offset, entry.length);
  }

  /** Decodes one entry as a site list. */
  readSite(entry: DatEntry): SiteList {
    this.expect('site');
    return named(this.name, () => decodeGeoSite(this.entryBytes(entry), 0, entry.length, entry.offset));
  }

  /**
   * Walks one IP entry's networks into a sink (nothing allocated per network; the entry's bytes
   * are read into a buffer reused from call to call). Returns its code and inverse_match.
   */
  scanIp(entry: DatEntry, sink: GeoIpSink): GeoIpHeader {
    this.expect('ip');
    return named(this.name, () => scanGeoIp(this.reusedBytes(entry), 0, entry.length, entry.offset, sink));
  }

  /**
   * The bytes of an entry, valid until the next call (a view, or a copy into a reused buffer).
   * Entries read in file order (every list) come from one read of 64 KiB or more each: a
   * geosite.dat holds over a thousand small entries, and a read a piece costs a system call.
   */
  reusedBytes(entry: DatEntry): Uint8Array {
    if (!this.source.readReusing) return this.entryBytes(entry);
    const bytes = this.reads.bytes(entry.offset, entry.length, READ_AHEAD);
    if (bytes.length < entry.length) throw this.cutShort(entry);
    return bytes;
  }

  /**
   * Reads an entry's message bytes from `offset` (within the entry) on into `into`, as many as it
   * holds: straight from the file for a file, copied for bytes in memory.
   */
  readEntryInto(entry: DatEntry, offset: number, into: Uint8Array): void {
    const length = Math.min(into.length, entry.length - offset);
    const at = entry.offset + offset;
    const got = this.source.readReusing
      ? this.source.readReusing(at, length, into)
      : this.source.read(at, length);
    if (got.length < length) throw this.cutShort(entry);
    if (got.buffer !== into.buffer || got.byteOffset !== into.byteOffset) into.set(got.subarray(0, length));
  }

  /**
   * Walks one site entry's rules into a sink (no object per rule; the entry's bytes are read into
   * a buffer reused from call to call). Returns the list's code.
   */
  scanSite(entry: DatEntry, sink: GeoSiteSink): string {
    this.expect('site');
    return named(this.name, () => scanGeoSite(this.reusedBytes(entry), 0, entry.length, entry.offset, sink));
  }

  /** Decodes one entry as an IP list. */
  readIp(entry: DatEntry): IpList {
    this.expect('ip');
    return named(this.name, () => decodeGeoIp(this.entryBytes(entry), 0, entry.length, entry.offset));
  }

  /** Releases the file. */
  close(): void {
    this.source.close();
  }

  /** The error for an entry the file no longer holds whole. */
  private cutShort(entry: DatEntry): GeoError {
    return new GeoError(
      'dat_corrupt',
      `${this.name}: the entry at byte ${entry.offset} runs past the end of the file (was it cut short while open?)`,
    );
  }

  private expect(kind: 'site' | 'ip'): void {
    if (this.kind !== kind && this.kind !== 'empty') {
      throw new GeoError('dat_kind', `${this.name} holds ${this.kind} lists, not ${kind} lists`);
    }
  }
}

/** Runs fn; a GeoError from it gets the file's name in front (once). */
function named<T>(name: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof GeoError && !err.message.startsWith(`${name}: `)) {
      throw new GeoError(err.code, `${name}: ${err.message}`);
    }
    throw err;
  }
}

/**
 * A file's bytes through a read-ahead window reused from read to read: a request the window
 * holds costs no read, any other one read of at least `ahead` bytes from the request on. The
 * bytes answered are good until the next request.
 */
class ReadWindow {
  private window: Uint8Array = new Uint8Array(0);
  private scratch: Uint8Array = new Uint8Array(0);
  private start = 0;

  constructor(private readonly source: ByteSource) {}

  /** The bytes [at, at + n) of the file (fewer at its end). */
  bytes(at: number, n: number, ahead: number): Uint8Array {
    const from = this.ensure(at, n, ahead);
    return this.window.subarray(from, Math.min(from + n, this.window.length));
  }

  /**
   * Makes sure the window holds [at, at + n), or all the file holds of it, and answers where `at`
   * is in `buffer`.
   */
  ensure(at: number, n: number, ahead: number): number {
    const from = at - this.start;
    const windowEnd = this.start + this.window.length;
    if (from >= 0 && at <= windowEnd && (at + n <= windowEnd || windowEnd === this.source.size)) return from;
    const want = Math.max(0, Math.min(Math.max(n, ahead), this.source.size - at));
    if (this.source.readReusing) {
      if (this.scratch.length < want)
        this.scratch = Buffer.allocUnsafe(Math.max(want, this.scratch.length * 2));
      this.window = this.source.readReusing(at, want, this.scratch);
    } else this.window = this.source.read(at, want);
    this.start = at;
    return 0;
  }

  /** The window's bytes (see ensure). */
  get buffer(): Uint8Array {
    return this.window;
  }
}

/**
 * How far to read ahead for the next entry header after an entry of `length` bytes: about as
 * far as sixteen entries like it. A geosite.dat's entries are small (a window then holds dozens
 * of headers); past a large entry (a geoip.dat's are kilobytes) only the next header is read,
 * since a read costs about what copying 10 KiB does here.
 */
function aheadAfter(length: number): number {
  return length < 4096 ? Math.min(READ_AHEAD, 16 * length) : 16 + HEADER_WINDOW;
}

/**
 * The entry at pos when it starts the way every builder writes one (tag 0x0a, its length, then
 * its code as field 1 in ASCII and a first list item as field 2), read from the window without
 * a reader object; undefined for anything else (the general reader then takes it).
 */
function quickEntry(
  reads: ReadWindow,
  pos: number,
  size: number,
  ahead: number,
): (DatEntry & { kind: DatKind }) | undefined {
  const i = reads.ensure(pos, 16 + HEADER_WINDOW, ahead);
  const w = reads.buffer;
  const end = w.length;
  if (w[i] !== 0x0a) return undefined;
  // The entry's length: a varint of up to 4 bytes (entries under 256 MiB).
  let j = i + 1;
  let length = 0;
  let shift = 0;
  for (;;) {
    if (j >= end || shift > 21) return undefined;
    const b = w[j++] as number;
    length += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) break;
  }
  const offset = pos + (j - i);
  const codeLength = w[j + 1] as number;
  const k = j + 2 + codeLength;
  if (offset + length > size || w[j] !== 0x0a || codeLength >= 0x80 || k + 3 > end || length < k + 3 - j) {
    return undefined;
  }
  if (w[k] !== 0x12 || (w[k + 1] as number) >= 0x80 || w[k + 1] === 0) return undefined;
  let code = '';
  for (let c = j + 2; c < k; c++) {
    const ch = w[c] as number;
    if (ch >= 0x80) return undefined;
    code += String.fromCharCode(ch);
  }
  // A CIDR starts with its ip bytes (field 1, tag 0x0a); a Domain with type (0x08) or value (0x12).
  return { code, offset, length, kind: w[k + 2] === 0x0a ? 'ip' : 'site' };
}

function scan(source: ByteSource, reads: ReadWindow): { entries: DatEntry[]; kind: DatKind } {
  const entries: DatEntry[] = [];
  let kind: DatKind = 'empty';
  let pos = 0;
  // Before the first entry, one header's worth ahead.
  let ahead = 16 + HEADER_WINDOW;
  while (pos < source.size) {
    const quick = quickEntry(reads, pos, source.size, ahead);
    if (quick) {
      if (kind === 'empty') kind = quick.kind;
      entries.push({ code: quick.code, offset: quick.offset, length: quick.length });
      ahead = aheadAfter(quick.length);
      pos = quick.offset + quick.length;
      continue;
    }
    const head = reads.bytes(pos, 16, ahead);
    const r = new WireReader(head, 0, head.length, pos);
    const tag = r.uint32();
    const wire = tag & 7;
    if (tag >>> 3 !== 1 || wire !== 2) {
      if (tag >>> 3 === 0 || ![0, 1, 2, 5].includes(wire)) {
        r.fail(`invalid field tag 0x${tag.toString(16)}: not a geosite.dat / geoip.dat file`, 0);
      }
      // Unknown top-level field: skip it, as protobuf readers do.
      if (wire === 2) {
        const len = r.uint32();
        pos += r.pos + len;
        if (pos > source.size) r.fail('field runs past the end of the file', 0);
      } else {
        r.skip(wire);
        pos += r.pos;
      }
      continue;
    }
    const length = r.uint32();
    const offset = pos + r.pos;
    if (offset + length > source.size) {
      r.fail(
        `entry ${entries.length + 1} of ${length} bytes runs past the end of the file (${source.size - offset} left; truncated?)`,
        0,
      );
    }
    const { code, kind: entryKind } = readEntryHead(reads, source, offset, length, ahead);
    if (kind === 'empty') kind = entryKind;
    entries.push({ code, offset, length });
    ahead = aheadAfter(length);
    pos = offset + length;
  }
  return { entries, kind };
}

/** Reads an entry's country_code (field 1) and tells site from ip by its first field-2 message. */
function readEntryHead(
  reads: ReadWindow,
  source: ByteSource,
  offset: number,
  length: number,
  ahead: number,
): { code: string; kind: DatKind } {
  if (length > HEADER_WINDOW) {
    try {
      return parseEntryHead(reads.bytes(offset, HEADER_WINDOW, ahead), offset, length);
    } catch (err) {
      // A field straddles the window (a long code or first rule): read the whole entry instead.
      if (!(err instanceof GeoError)) throw err;
    }
    return parseEntryHead(source.read(offset, length), offset, length);
  }
  return parseEntryHead(reads.bytes(offset, length, ahead), offset, length);
}

function parseEntryHead(window: Uint8Array, offset: number, length: number): { code: string; kind: DatKind } {
  const r = new WireReader(window, 0, window.length, offset);
  let code: string | undefined;
  let fallbackCode = '';
  let kind: DatKind = 'empty';
  while (r.pos < length) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 2) code = r.string();
    else if (field === 2 && wire === 2) {
      const end = r.lengthEnd();
      // A CIDR starts with its ip bytes (field 1, tag 0x0a); a Domain with type (0x08) or value (0x12).
      if (kind === 'empty' && end > r.pos) kind = window[r.pos] === 0x0a ? 'ip' : 'site';
      r.pos = end;
    } else if ((field === 4 || field === 5) && wire === 2) fallbackCode = r.string();
    else r.skip(wire);
    if (code !== undefined && kind !== 'empty') break;
  }
  return { code: code ?? fallbackCode, kind };
}
