// Aho-Corasick automaton over a set of strings: one pass over a text reports every pattern that
// occurs in it. Compiled to a dense transition table (states x alphabet) in typed arrays, so a
// scan is table lookups only: no allocation, no backtracking.
//   patterns -> trie -> failure links (BFS) -> full DFA table + flattened outputs per state

/** Finds every pattern occurring in a text; pattern ids are indexes into the constructor's array. */
export class KeywordAutomaton {
  /** Symbol of each ASCII code (0 = a character no pattern contains). */
  private readonly ascii = new Int32Array(128);
  /** Symbols of non-ASCII characters that occur in patterns. */
  private readonly wide = new Map<number, number>();
  private readonly alphabet: number;
  private readonly delta: Int32Array;
  /**
   * The ASCII columns of delta, indexed by state * 128 + character code directly (no symbol
   * lookup), with a target that has outputs stored as its complement (~t < 0): a step is one load
   * and one sign test.
   */
  private readonly ascii128: Int32Array;
  private readonly outStart: Int32Array;
  private readonly outIds: Int32Array;
  /** Number of patterns. */
  readonly size: number;

  constructor(patterns: readonly string[]) {
    this.size = patterns.length;
    let symbols = 1;
    for (const p of patterns) {
      for (let k = 0; k < p.length; k++) {
        const c = p.charCodeAt(k);
        if (c < 128) {
          if (this.ascii[c] === 0) this.ascii[c] = symbols++;
        } else if (!this.wide.has(c)) this.wide.set(c, symbols++);
      }
    }
    this.alphabet = symbols;
    // Trie with transitions in maps while building.
    const next: Map<number, number>[] = [new Map()];
    const outs: number[][] = [[]];
    patterns.forEach((p, id) => {
      let s = 0;
      for (let k = 0; k < p.length; k++) {
        const sym = this.symbol(p.charCodeAt(k));
        let t = (next[s] as Map<number, number>).get(sym);
        if (t === undefined) {
          t = next.length;
          next.push(new Map());
          outs.push([]);
          (next[s] as Map<number, number>).set(sym, t);
        }
        s = t;
      }
      (outs[s] as number[]).push(id);
    });
    const states = next.length;
    const delta = new Int32Array(states * symbols);
    const fail = new Int32Array(states);
    // Breadth-first: a state's failure target is shallower, so its row and outputs are final.
    const queue: number[] = [];
    for (const [sym, t] of next[0] as Map<number, number>) {
      delta[sym] = t;
      queue.push(t);
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q] as number;
      const f = fail[s] as number;
      (outs[s] as number[]).push(...(outs[f] as number[]));
      for (let sym = 0; sym < symbols; sym++) {
        const t = (next[s] as Map<number, number>).get(sym);
        if (t === undefined) delta[s * symbols + sym] = delta[f * symbols + sym] as number;
        else {
          delta[s * symbols + sym] = t;
          fail[t] = s === 0 ? 0 : (delta[f * symbols + sym] as number);
          queue.push(t);
        }
      }
    }
    // Root transitions on unknown symbols (0) stay at the root; a root child's failure is the root.
    this.delta = delta;
    this.outStart = new Int32Array(states + 1);
    let total = 0;
    for (let s = 0; s < states; s++) {
      this.outStart[s] = total;
      total += (outs[s] as number[]).length;
    }
    this.outStart[states] = total;
    this.outIds = new Int32Array(total);
    for (let s = 0; s < states; s++) this.outIds.set(outs[s] as number[], this.outStart[s] as number);
    this.ascii128 = new Int32Array(states * 128);
    for (let s = 0; s < states; s++) {
      for (let c = 0; c < 128; c++) {
        const t = delta[s * symbols + (this.ascii[c] as number)] as number;
        this.ascii128[s * 128 + c] = this.hasOutput(t) ? ~t : t;
      }
    }
  }

  /**
   * One step from state s on character code c: the next state, or its complement (< 0) when
   * that state reports patterns (then call outputs() with ~result). For walks that fuse the
   * automaton into another pass over the text.
   */
  step(s: number, c: number): number {
    if (c < 128) return this.ascii128[(s << 7) | c] as number;
    const t = this.delta[s * this.alphabet + this.symbol(c)] as number;
    return this.hasOutput(t) ? ~t : t;
  }

  /** Calls onMatch(id) for each pattern state s reports. */
  outputs(s: number, onMatch: (id: number) => void): void {
    const end = this.outStart[s + 1] as number;
    for (let o = this.outStart[s] as number; o < end; o++) onMatch(this.outIds[o] as number);
  }

  private hasOutput(state: number): boolean {
    return (this.outStart[state + 1] as number) > (this.outStart[state] as number);
  }

  /** Calls onMatch(id) for each pattern occurrence in text[from, to) (a pattern may repeat). */
  scan(text: string, from: number, to: number, onMatch: (id: number) => void): void {
    const delta = this.delta;
    const alphabet = this.alphabet;
    const outStart = this.outStart;
    const outIds = this.outIds;
    const fast = this.ascii128;
    let s = 0;
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      let t: number;
      if (c < 128) t = fast[(s << 7) | c] as number;
      else {
        t = delta[s * alphabet + this.symbol(c)] as number;
        if (this.hasOutput(t)) t = ~t;
      }
      if (t >= 0) {
        s = t;
        continue;
      }
      s = ~t;
      const end = outStart[s + 1] as number;
      for (let o = outStart[s] as number; o < end; o++) onMatch(outIds[o] as number);
    }
  }

  private symbol(c: number): number {
    return c < 128 ? (this.ascii[c] as number) : (this.wide.get(c) ?? 0);
  }
}
