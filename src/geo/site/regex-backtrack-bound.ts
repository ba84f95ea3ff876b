// Whether V8's backtracking RegExp runs a pattern in bounded time (docs/geo.md, "Hostile regexps"):
// from any start, at most MAX_WAYS ways may reach one character of the pattern at one input
// position. A pure function of the parse tree; refuses whatever exceeds its work budget.
//   tree -> position automaton, edges counted by ways -> every reachable (position, ways) set -> <= limit

import type { RegexNode } from './regex-tree.js';

/** The most ways to reach one character of the pattern at one input position that is accepted. */
export const MAX_WAYS = 4;

/** Character positions the expansion of counted repetition may create (`[a-z]{1000}` fits). */
const MAX_POSITIONS = 1024;

/**
 * Work units (list entries copied or visited) the analysis may spend: a millisecond or two, about
 * what re2js takes to compile such a pattern; the real dlc patterns need 6688 at most.
 */
const MAX_WORK = 20_000;

/** Distinct (position, ways) sets the walk may visit. */
const MAX_STATES = 2000;

/**
 * Ways into, through and out of a part of the pattern. `first` and `last` are flat
 * [position, ways, ...] lists; the operands of a sequence or an alternation never share a
 * position, so joining two parts is concatenation.
 */
interface Part {
  /** Ways through it without reading a character. */
  readonly empty: number;
  /** The first character positions, with the ways from the part's start to each. */
  readonly first: readonly number[];
  /** The last character positions, with the ways from each to the part's end. */
  readonly last: readonly number[];
}

const EMPTY_PART: Part = { empty: 1, first: [], last: [] };

/** Thrown to stop the analysis: over budget, or a loop that could go round reading nothing. */
class Refused extends Error {}

/**
 * Whether no input gives more than `limit` ways to reach one character of the pattern (or its
 * end) at one input position from one start. A backtracker then tries each character at most
 * `limit` times per input position: linear work per start, quadratic for an unanchored search.
 * Nested or overlapping repetition (`(a+)+`, `(a|a)*`, `\d*\d*`, `(.*a){20}`, `(a?){25}`) fails.
 */
export function backtrackBounded(tree: RegexNode, limit: number = MAX_WAYS): boolean {
  try {
    return new Analysis(limit).run(tree);
  } catch (err) {
    if (err instanceof Refused) return false;
    throw err;
  }
}

class Analysis {
  /** Each character position's ranges. */
  private readonly sets: (readonly number[])[] = [];
  /** Per position: the positions that may follow it and the ways, as [position, ways, ...]; a
   *  pair may occur more than once (the ways add up). */
  private readonly follow: number[][] = [];
  private work = 0;
  private readonly cap: number;

  constructor(private readonly limit: number) {
    this.cap = Math.min(limit + 1, 0xffff);
  }

  run(tree: RegexNode): boolean {
    // The end of the pattern is one more position, which no character matches: reaching it may
    // still fail (`$`), so the ways to it count like the others.
    const root = this.seq(this.part(tree), this.part({ kind: 'chars', ranges: [] }));
    return (this.limit >= 1 && this.forksNever(root.first)) || this.walk(root.first);
  }

  /**
   * The quick case (most real patterns): every edge is one way, and whatever may come first, or
   * next after any position, is distinct positions with disjoint sets. Then an input has at most
   * one route, so no position is ever tried more than once at an input position.
   */
  private forksNever(start: readonly number[]): boolean {
    if (!this.disjoint(start)) return false;
    for (const edges of this.follow) if (!this.disjoint(edges)) return false;
    return true;
  }

  /** Whether a [position, ways, ...] list has ways 1 each and pairwise disjoint positions' sets. */
  private disjoint(list: readonly number[]): boolean {
    for (let i = 0; i < list.length; i += 2) {
      if (list[i + 1] !== 1) return false;
      const a = this.sets[list[i] as number] as readonly number[];
      for (let j = i + 2; j < list.length; j += 2) {
        const b = this.sets[list[j] as number] as readonly number[];
        this.spend(a.length + b.length);
        if (list[i] === list[j] || overlap(a, b)) return false;
      }
    }
    return true;
  }

  private spend(units: number): void {
    this.work += units;
    if (this.work > MAX_WORK) throw new Refused();
  }

  private mul(a: number, b: number): number {
    return Math.min(a * b, this.cap);
  }

  /** `list` with every count multiplied by `times` (none when `times` is 0). */
  private scaled(list: readonly number[], times: number): readonly number[] {
    if (times === 1 || list.length === 0) return list;
    if (times === 0) return [];
    this.spend(list.length);
    const out = list.slice();
    for (let i = 1; i < out.length; i += 2) out[i] = this.mul(out[i] as number, times);
    return out;
  }

  private join(a: readonly number[], b: readonly number[]): readonly number[] {
    if (a.length === 0) return b;
    if (b.length === 0) return a;
    this.spend(a.length + b.length);
    return a.concat(b);
  }

  /** Records that each position of `lasts` may be followed by each of `firsts`. */
  private link(lasts: readonly number[], firsts: readonly number[]): void {
    this.spend((lasts.length * firsts.length) / 4);
    for (let i = 0; i < lasts.length; i += 2) {
      const next = this.follow[lasts[i] as number] as number[];
      const a = lasts[i + 1] as number;
      for (let j = 0; j < firsts.length; j += 2)
        next.push(firsts[j] as number, this.mul(a, firsts[j + 1] as number));
    }
  }

  private seq(a: Part, b: Part): Part {
    this.link(a.last, b.first);
    return {
      empty: this.mul(a.empty, b.empty),
      first: this.join(a.first, this.scaled(b.first, a.empty)),
      last: this.join(b.last, this.scaled(a.last, b.empty)),
    };
  }

  private part(node: RegexNode): Part {
    this.spend(1);
    switch (node.kind) {
      case 'chars': {
        if (this.sets.length >= MAX_POSITIONS) throw new Refused();
        const p = this.sets.length;
        this.sets.push(node.ranges);
        this.follow.push([]);
        return { empty: 0, first: [p, 1], last: [p, 1] };
      }
      case 'assert':
        // Zero-width: counted as always holding, which only adds ways.
        return EMPTY_PART;
      case 'seq':
        return node.items.reduce<Part>((acc, item) => this.seq(acc, this.part(item)), EMPTY_PART);
      case 'alt': {
        let first: readonly number[] = [];
        let last: readonly number[] = [];
        let empty = 0;
        for (const branch of node.branches) {
          const b = this.part(branch);
          first = this.join(first, b.first);
          last = this.join(last, b.last);
          empty = Math.min(empty + b.empty, this.cap);
        }
        return { empty, first, last };
      }
      case 'repeat':
        return this.repeat(node.body, node.min, node.max);
    }
  }

  /**
   * `body{min,max}` as a backtracker runs it: `min` copies, then either a loop (no upper bound)
   * or `max - min` nested optional copies (after each copy: another one, or leave).
   */
  private repeat(body: RegexNode, min: number, max: number): Part {
    let acc = EMPTY_PART;
    for (let k = 1; k < min; k++) acc = this.seq(acc, this.part(body));
    if (max === Number.POSITIVE_INFINITY) {
      const loop = this.part(body);
      // A body that can match nothing could go round without reading: refused outright.
      if (loop.empty > 0) throw new Refused();
      this.link(loop.last, loop.first);
      return this.seq(acc, min === 0 ? { ...loop, empty: 1 } : loop);
    }
    if (min > 0) acc = this.seq(acc, this.part(body));
    let optional = EMPTY_PART;
    for (let k = min; k < max; k++) {
      const inner = this.seq(this.part(body), optional);
      optional = { ...inner, empty: Math.min(inner.empty + 1, this.cap) };
    }
    return this.seq(acc, optional);
  }

  /**
   * Reads every input a character class at a time, from the positions the pattern's first
   * characters give, keeping each reached position with its ways; false as soon as some
   * position is tried more than `limit` ways at one input position.
   */
  private walk(start: readonly number[]): boolean {
    const classes = this.classesPerPosition();
    const count = this.sets.length;
    // The ways each position is tried next (before its character is compared), and which are set.
    const tries = new Uint16Array(count);
    let touched: number[] = [];
    const buckets: number[][] = [];
    const seen = new Set<string>();
    const queue: (readonly number[])[] = [];
    const add = (q: number, n: number): void => {
      if (tries[q] === 0) touched.push(q);
      tries[q] = Math.min((tries[q] as number) + n, this.cap);
    };
    // Splits the tried positions by the character class that lets them through.
    const expand = (): boolean => {
      touched.sort((x, y) => x - y);
      const used: number[] = [];
      for (const q of touched) {
        const n = tries[q] as number;
        tries[q] = 0;
        if (n > this.limit) return false;
        const ids = classes[q] as readonly number[];
        this.spend(ids.length);
        for (const id of ids) {
          let bucket = buckets[id];
          if (!bucket) {
            bucket = [];
            buckets[id] = bucket;
          }
          if (bucket.length === 0) used.push(id);
          bucket.push(q, n);
        }
      }
      touched = [];
      for (const id of used) {
        const state = buckets[id] as number[];
        buckets[id] = [];
        this.spend(state.length);
        const key = String.fromCharCode(...state);
        if (seen.has(key)) continue;
        if (seen.size >= MAX_STATES) throw new Refused();
        seen.add(key);
        queue.push(state);
      }
      return true;
    };
    for (let i = 0; i < start.length; i += 2) add(start[i] as number, start[i + 1] as number);
    if (!expand()) return false;
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head] as readonly number[];
      for (let i = 0; i < state.length; i += 2) {
        const edges = this.follow[state[i] as number] as number[];
        const n = state[i + 1] as number;
        this.spend(edges.length / 2);
        for (let j = 0; j < edges.length; j += 2)
          add(edges[j] as number, this.mul(n, edges[j + 1] as number));
      }
      if (!expand()) return false;
    }
    return true;
  }

  /**
   * Splits the code points into classes that no position's set cuts (between consecutive range
   * ends) and lists, per position, the classes it contains. Classes contained by exactly the same
   * positions behave the same; keeping them apart only costs time.
   */
  private classesPerPosition(): number[][] {
    let total = 0;
    for (const ranges of this.sets) total += ranges.length;
    this.spend(total);
    // Every range start and every end + 1, sorted (a typed array sorts numerically), unique.
    const cuts = new Int32Array(total);
    let n = 0;
    for (const ranges of this.sets) {
      for (let i = 0; i + 1 < ranges.length; i += 2) {
        cuts[n++] = ranges[i] as number;
        cuts[n++] = (ranges[i + 1] as number) + 1;
      }
    }
    cuts.sort();
    let unique = 0;
    for (let i = 0; i < n; i++)
      if (unique === 0 || cuts[i] !== cuts[unique - 1]) cuts[unique++] = cuts[i] as number;
    const sorted = cuts.subarray(0, unique);
    return this.sets.map((ranges) => {
      const ids: number[] = [];
      for (let i = 0; i + 1 < ranges.length; i += 2) {
        const from = findCut(sorted, ranges[i] as number);
        const to = findCut(sorted, (ranges[i + 1] as number) + 1);
        this.spend(to - from);
        for (let id = from; id < to; id++) ids.push(id);
      }
      return ids;
    });
  }
}

/** The index of a value known to be in a sorted array. */
function findCut(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether two normalized range lists share a code point. */
function overlap(a: readonly number[], b: readonly number[]): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if ((a[i + 1] as number) < (b[j] as number)) i += 2;
    else if ((b[j + 1] as number) < (a[i] as number)) j += 2;
    else return true;
  }
  return false;
}
