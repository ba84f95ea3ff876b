// The IP matcher's build core in WebAssembly (assembly/ip-core.ts, compiled into
// src/geo/gen/ip-core-wasm.ts): the same build as IpMatcherBuilder for files in the encoding
// every builder writes, as code that runs at full speed from its first call. A process that
// loads a few lists (cn + private) is done with them before V8 would have compiled the
// JavaScript builder. What the core does not take (another encoding, a list out of order, a
// corrupt entry) it hands back: buildIpTablesWithCore answers undefined and the caller runs the
// JavaScript builder, which reads anything valid and reports errors with their offsets.
import { IP_CORE_WASM } from '../gen/ip-core-wasm.js';
import { indexBits } from './ip-matcher.js';

/** One family's table: interval k starts at point k (width words each) and matches set setOf[k]. */
export interface FamilyTable {
  readonly starts: Uint32Array;
  readonly setOf: Int32Array;
  readonly count: number;
}

/** A compiled matcher's tables (what IpMatcher looks addresses up in). */
export interface IpTables {
  readonly v4: FamilyTable;
  readonly v4Index: Int32Array;
  readonly v6: FamilyTable;
  readonly v6Index: Int32Array;
  /** Set s has members setIds[setStart[s], setStart[s + 1]); set 0 is the empty set. */
  readonly setStart: Int32Array;
  readonly setIds: Int32Array;
}

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

/** The part of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: object) => { readonly exports: object };
}
const wasm = (globalThis as unknown as { readonly WebAssembly?: WasmApi }).WebAssembly;

interface CoreExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  /** Answers the header: i32 0 the input buffer, 1 the entry's inverse_match, 2-12 the tables. */
  begin(lists: number, cap4: number, cap6: number, inputSize: number): number;
  beginList(list: number): void;
  /** flags: 1 the entry's last piece, 2 its first. */
  scanEntry(at: number, length: number, flags: number): number;
  endList(inverse: number): number;
  sweep(): void;
}

/**
 * The compiled core, compiled when this module loads (about half a millisecond: V8 compiles
 * each function on its first call), or undefined where there is no WebAssembly (`node
 * --jitless`): every build then goes to the JavaScript builder.
 */
const compiled = compileCore();

function compileCore(): object | undefined {
  if (!wasm) return undefined;
  try {
    return new wasm.Module(Buffer.from(IP_CORE_WASM, 'base64'));
  } catch {
    return undefined;
  }
}

/** Whether builds can use the core (false where the runtime has no WebAssembly). */
export const ipCoreAvailable = compiled !== undefined;

/**
 * Builds the tables of `lists` (in result-index order) with the WebAssembly core, or answers
 * undefined when an entry is in an encoding the core does not take or a list is out of order
 * (then the JavaScript builder does the build). `totalBytes`: the entries' bytes together, which
 * bound the events (a network takes 8 bytes or more, and makes two events at most).
 */
export function buildIpTablesWithCore(lists: readonly CoreList[], totalBytes: number): IpTables | undefined {
  if (!wasm || !compiled) return undefined;
  const core = new wasm.Instance(compiled, {}).exports as CoreExports;
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
  const h = new Int32Array(buffer, header * 4, 13);
  const at = (k: number) => h[k] as number;
  const v4Count = at(4);
  const v6Count = at(8);
  const sets = at(10);
  const setStart = new Int32Array(buffer, at(11), sets + 1);
  const members = setStart[sets] as number;
  const v4Slots = (1 << indexBits(v4Count)) + 1;
  const v6Slots = (1 << indexBits(v6Count)) + 1;
  const tableBytes = 4 * (2 * v4Count + 5 * v6Count + v4Slots + v6Slots + sets + 1 + members);
  // Views of the core's memory, or copies of them (see KEEP_VIEWS_BELOW).
  const copy = buffer.byteLength - tableBytes >= KEEP_VIEWS_BELOW;
  const i32 = (ptr: number, count: number) => {
    const view = new Int32Array(buffer, ptr, count);
    return copy ? view.slice() : view;
  };
  const u32 = (ptr: number, count: number) => {
    const view = new Uint32Array(buffer, ptr, count);
    return copy ? view.slice() : view;
  };
  return {
    v4: { starts: u32(at(2), v4Count), setOf: i32(at(3), v4Count), count: v4Count },
    v4Index: i32(at(5), v4Slots),
    v6: { starts: u32(at(6), 4 * v6Count), setOf: i32(at(7), v6Count), count: v6Count },
    v6Index: i32(at(9), v6Slots),
    setStart: copy ? setStart.slice() : setStart,
    setIds: i32(at(12), members),
  };
}
