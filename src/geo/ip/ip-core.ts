// The IP matcher's build core in WebAssembly (assembly/ip-core.ts, compiled into
// src/geo/gen/ip-core-wasm.ts): the same build as IpMatcherBuilder for files in the encoding
// every builder writes, as code that runs at full speed from its first call. A process that
// loads a few lists (cn + private) is done with them before V8 would have compiled the
// JavaScript builder. What the core does not take (another encoding, a list out of order, a
// corrupt entry) it hands back: buildIpTablesWithCore answers undefined and the caller runs the
// JavaScript builder, which reads anything valid and reports errors with their offsets.
import { IP_CORE_WASM } from '../gen/ip-core-wasm.js';
import type { FamilyTable, IpTables } from './ip-matcher.js';

/** One list to build: its entries' message bytes, read one at a time. */
export interface CoreList {
  /** The byte lengths of its entries. */
  readonly lengths: readonly number[];
  /** Reads entry k's bytes from `offset` on into `into` (as many as it holds). */
  read(k: number, offset: number, into: Uint8Array): void;
  /** Checks that entry k's inverse_match agrees with the entries before it (throws if not). */
  inverse(k: number, inverseMatch: boolean): void;
}

/**
 * Below this many bytes of the core's memory left over beside the tables (the entries' bytes,
 * the events), the matcher keeps views of the core's memory instead of copies: a small build
 * then writes its tables once (each fresh page costs a fault). Above it the tables are copied
 * out and the memory goes with the instance.
 */
const KEEP_VIEWS_BELOW = 2 << 20;

/** The bytes of an entry handed to the core at a time (fewer fresh pages than a whole entry). */
const PIECE = 64 << 10;

/**
 * The header the core writes, as i32 slots (assembly/ip-core.ts has the same layout): 0 the
 * input buffer, 1 the inverse_match of the entry read; from HEADER_V4 and HEADER_V6 a family's
 * table (starts, sets, count, lookup index, the index's length); from HEADER_SETS the number of
 * sets, where each set's members start, and the members.
 */
const HEADER_V4 = 2;
const HEADER_V6 = 7;
const HEADER_SETS = 12;

/** The part of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: object) => { readonly exports: object };
}
const wasm = (globalThis as unknown as { readonly WebAssembly?: WasmApi }).WebAssembly;

interface CoreExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  /** Answers the header's address (its layout: HEADER_V4, HEADER_V6, HEADER_SETS). */
  begin(lists: number, cap4: number, cap6: number, inputSize: number): number;
  beginList(list: number): void;
  /** flags: 1 the entry's last piece, 2 its first. */
  scanEntry(at: number, length: number, flags: number): number;
  endList(inverse: number): number;
  sweep(): void;
}

/**
 * The compiled core, compiled at the first build that asks for it (0.5-1.3 ms here: V8 compiles
 * each function on its first call), so a process that builds no IP matcher never pays it; null
 * until then, undefined where there is no WebAssembly (`node --jitless`): every build then goes
 * to the JavaScript builder.
 */
let compiled: object | undefined | null = null;

function compiledCore(): object | undefined {
  if (compiled === null) {
    compiled = undefined;
    if (wasm) {
      try {
        compiled = new wasm.Module(Buffer.from(IP_CORE_WASM, 'base64'));
      } catch {
        // Left undefined: the JavaScript builder does every build.
      }
    }
  }
  return compiled;
}

/** Whether builds can use the core (false where the runtime has no WebAssembly). */
export function ipCoreAvailable(): boolean {
  return compiledCore() !== undefined;
}

/**
 * Builds the tables of `lists` (in result-index order) with the WebAssembly core, or answers
 * undefined when an entry is in an encoding the core does not take or a list is out of order
 * (then the JavaScript builder does the build). `totalBytes`: the entries' bytes together, which
 * bound the events (a network takes 8 bytes or more, and makes two events at most).
 */
export function buildIpTablesWithCore(lists: readonly CoreList[], totalBytes: number): IpTables | undefined {
  const module = compiledCore();
  if (!wasm || !module) return undefined;
  const core = new wasm.Instance(module, {}).exports as CoreExports;
  const n = lists.length;
  const header =
    core.begin(
      n,
      2 * Math.floor(totalBytes / 8) + 3 * n + 3,
      2 * Math.floor(totalBytes / 20) + 3 * n + 3,
      PIECE,
    ) / 4;
  // (The memory grows only in begin and sweep: views made in between stay valid.)
  const head = new Int32Array(core.memory.buffer);
  const input = new Uint8Array(core.memory.buffer, head[header] as number, PIECE);
  for (let l = 0; l < n; l++) {
    const list = lists[l] as CoreList;
    core.beginList(l);
    let inverse = false;
    for (let k = 0; k < list.lengths.length; k++) {
      // The entry a piece at a time, each piece starting where the fields taken so far end.
      const length = list.lengths[k] as number;
      for (let done = 0; done < length; ) {
        const piece = Math.min(PIECE, length - done);
        list.read(k, done, piece === PIECE ? input : input.subarray(0, piece));
        const flags = (done + piece === length ? 1 : 0) | (done === 0 ? 2 : 0);
        const took = core.scanEntry(input.byteOffset, piece, flags);
        // A field longer than a piece (or anything the core does not take): hand the build back.
        if (took <= 0) return undefined;
        done += took;
      }
      inverse = head[header + 1] === 1;
      list.inverse(k, inverse);
    }
    if (core.endList(inverse ? 1 : 0) < 0) return undefined;
  }
  core.sweep();
  const buffer = core.memory.buffer;
  const h = new Int32Array(buffer, header * 4, HEADER_SETS + 3);
  const at = (k: number) => h[k] as number;
  const sets = at(HEADER_SETS);
  const setStart = new Int32Array(buffer, at(HEADER_SETS + 1), sets + 1);
  const members = setStart[sets] as number;
  const tableBytes =
    4 * (2 * at(HEADER_V4 + 2) + at(HEADER_V4 + 4) + 5 * at(HEADER_V6 + 2) + at(HEADER_V6 + 4)) +
    4 * (sets + 1 + members);
  // Views of the core's memory, or copies of them (see KEEP_VIEWS_BELOW).
  const copy = buffer.byteLength - tableBytes >= KEEP_VIEWS_BELOW;
  const i32 = (ptr: number, count: number) => {
    const view = new Int32Array(buffer, ptr, count);
    return copy ? view.slice() : view;
  };
  /** A family's table and index from header slot `from` on (`width` words a start). */
  const family = (from: number, width: number): [FamilyTable, Int32Array] => {
    const count = at(from + 2);
    const starts = new Uint32Array(buffer, at(from), width * count);
    return [
      { starts: copy ? starts.slice() : starts, setOf: i32(at(from + 1), count), count },
      i32(at(from + 3), at(from + 4)),
    ];
  };
  const [v4, v4Index] = family(HEADER_V4, 1);
  const [v6, v6Index] = family(HEADER_V6, 4);
  return {
    v4,
    v4Index,
    v6,
    v6Index,
    setStart: copy ? setStart.slice() : setStart,
    setIds: i32(at(HEADER_SETS + 2), members),
  };
}
