// Whether V8's backtracking RegExp runs a pattern in bounded time (see docs/geo.md, "Regexps"):
// from any start, at most MAX_WAYS ways may reach one character of the pattern at one input
// position. A pure function of the parse tree; refuses whatever exceeds its work budget.
//   tree -> position automaton, edges counted by ways -> every reachable (position, ways) set -> <= limit

import type { RegexNode } from './regex-tree.js';

/** The most ways to reach one character of the pattern at one input position that is accepted. */
export const MAX_WAYS = 4;

/** Character positions the expansion of counted repetition may create (`[a-z]{1000}` fits). */
const MAX_POSITIONS = 1024;

/**
 * Work units (map entries copied or visited) the analysis may spend: a few milliseconds at most,
 * about what re2js takes to compile such a pattern; the real dlc patterns need 4375 at most.
 */
const MAX_WORK = 20_000;

/** Distinct (position, ways) sets the walk may visit. */
const MAX_STATES = 2000;

/** Ways into, through and out of a part of the pattern, counted with a cap. */
interface Part {
  /** Ways through it without reading a character. */
  readonly empty: number;
  /** The first character positions, with the ways from the part's start to each. */
  readonly first: Map<number, number>;
  /** The last character positions, with the ways from each to the part's end. */
  readonly last: Map<number, number>;
}

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
  /** Per position: the positions that may follow it, with the number of ways. */
  private readonly follow: Map<number, number>[] = [];
  private work = 0;
  private readonly cap: number;

  constructor(private readonly limit: number) {
    this.cap = limit + 1;
  }

  run(tree: RegexNode): boolean {
    // The end of the pattern is one more position, which no character matches: reaching it may
    // still fail (`$`), so the ways to it count like the others.
    const root = this.seq(this.part(tree), this.part({ kind: 'chars', ranges: [] }));
    return this.walk(root.first);
  }

  private spend(units: number): void {
    this.work += units;
    if (this.work > MAX_WORK) throw new Refused();
  }

  private mul(a: number, b: number): number {
    return Math.min(a * b, this.cap);
  }

  /** Adds `times` x each entry of `from` into `into`. */
  private addInto(into: Map<number, number>, from: Map<number, number>, times: number): void {
    if (times === 0) return;
    this.spend(from.size);
    for (const [p, n] of from) into.set(p, Math.min((into.get(p) ?? 0) + this.mul(n, times), this.cap));
  }

  /** Records that each position of `lasts` may be followed by each of `firsts`. */
  private link(lasts: Map<number, number>, firsts: Map<number, number>): void {
    this.spend(lasts.size * firsts.size);
    for (const [p, a] of lasts) {
      const next = this.follow[p] as Map<number, number>;
      for (const [q, b] of firsts) next.set(q, Math.min((next.get(q) ?? 0) + this.mul(a, b), this.cap));
    }
  }

  private seq(a: Part, b: Part): Part {
    this.spend(a.first.size + b.last.size);
    this.link(a.last, b.first);
    const first = new Map(a.first);
    this.addInto(first, b.first, a.empty);
    const last = new Map(b.last);
    this.addInto(last, a.last, b.empty);
    return { empty: this.mul(a.empty, b.empty), first, last };
  }

  private part(node: RegexNode): Part {
    this.spend(1);
    switch (node.kind) {
      case 'chars': {
        if (this.sets.length >= MAX_POSITIONS) throw new Refused();
        const p = this.sets.length;
        this.sets.push(node.ranges);
        this.follow.push(new Map());
        return { empty: 0, first: new Map([[p, 1]]), last: new Map([[p, 1]]) };
      }
      case 'assert':
        // Zero-width: counted as always holding, which only adds ways.
        return { empty: 1, first: new Map(), last: new Map() };
      case 'seq':
        return node.items.reduce<Part>((acc, item) => this.seq(acc, this.part(item)), EMPTY_PART());
      case 'alt': {
        const first = new Map<number, number>();
        const last = new Map<number, number>();
        let empty = 0;
        for (const branch of node.branches) {
          const b = this.part(branch);
          this.addInto(first, b.first, 1);
          this.addInto(last, b.last, 1);
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
    let acc = EMPTY_PART();
    for (let k = 1; k < min; k++) acc = this.seq(acc, this.part(body));
    if (max === Number.POSITIVE_INFINITY) {
      const loop = this.part(body);
      // A body that can match nothing could go round without reading: refused outright.
      if (loop.empty > 0) throw new Refused();
      this.link(loop.last, loop.first);
      return this.seq(acc, min === 0 ? { ...loop, empty: 1 } : loop);
    }
    if (min > 0) acc = this.seq(acc, this.part(body));
    let optional = EMPTY_PART();
    for (let k = min; k < max; k++) {
      const inner = this.seq(this.part(body), optional);
      optional = { ...inner, empty: Math.min(inner.empty + 1, this.cap) };
    }
    return this.seq(acc, optional);
  }

  /**
   * Reads every input a character class at a time from the set of positions the pattern's first
   * characters give, each with its ways; false as soon as some position is tried more than
   * `limit` ways at one input position.
   */
  private walk(start: Map<number, number>): boolean {
    const classes = this.classesPerPosition();
    const seen = new Set<string>();
    const queue: Map<number, number>[] = [];
    // `tries` are the ways each position is tried next, before its character is compared.
    const expand = (tries: Map<number, number>): boolean => {
      const next = new Map<number, Map<number, number>>();
      for (const [q, n] of tries) {
        if (n > this.limit) return false;
        const ids = classes[q] as readonly number[];
        this.spend(ids.length);
        for (const id of ids) {
          let to = next.get(id);
          if (!to) {
            to = new Map();
            next.set(id, to);
          }
          to.set(q, n);
        }
      }
      for (const state of next.values()) {
        const key = stateKey(state);
        this.spend(state.size);
        if (seen.has(key)) continue;
        if (seen.size >= MAX_STATES) throw new Refused();
        seen.add(key);
        queue.push(state);
      }
      return true;
    };
    if (!expand(start)) return false;
    for (let head = 0; head < queue.length; head++) {
      const tries = new Map<number, number>();
      for (const [p, n] of queue[head] as Map<number, number>) {
        this.addInto(tries, this.follow[p] as Map<number, number>, n);
      }
      if (!expand(tries)) return false;
    }
    return true;
  }

  /**
   * Splits the code points into classes that no position's set cuts (between consecutive range
   * ends) and lists, per position, the classes it contains. Classes contained by exactly the same
   * positions behave the same; keeping them apart only costs time.
   */
  private classesPerPosition(): number[][] {
    const cuts = new Set<number>();
    for (const ranges of this.sets) {
      this.spend(ranges.length);
      for (let i = 0; i + 1 < ranges.length; i += 2) {
        cuts.add(ranges[i] as number);
        cuts.add((ranges[i + 1] as number) + 1);
      }
    }
    const index = new Map([...cuts].sort((a, b) => a - b).map((cut, id) => [cut, id]));
    return this.sets.map((ranges) => {
      const ids: number[] = [];
      for (let i = 0; i + 1 < ranges.length; i += 2) {
        const from = index.get(ranges[i] as number) as number;
        const to = index.get((ranges[i + 1] as number) + 1) as number;
        this.spend(to - from);
        for (let id = from; id < to; id++) ids.push(id);
      }
      return ids;
    });
  }
}

function EMPTY_PART(): Part {
  return { empty: 1, first: new Map(), last: new Map() };
}

/** The same text for the same set whatever the order it was built in. */
function stateKey(state: Map<number, number>): string {
  return [...state]
    .sort((a, b) => a[0] - b[0])
    .map(([p, n]) => `${p}:${n}`)
    .join(',');
}
