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
    // The trie as a table (a row of children per state, 0: none; the root is never a child),
    // sized for the most states the patterns can make.
    let chars = 0;
    for (const p of patterns) chars += p.length;
    const trie = new Int32Array((chars + 1) * symbols);
    let states = 1;
    const outs: number[][] = [[]];
    patterns.forEach((p, id) => {
      let s = 0;
      for (let k = 0; k < p.length; k++) {
        const at = s * symbols + this.symbol(p.charCodeAt(k));
        let t = trie[at] as number;
        if (t === 0) {
          t = states++;
          trie[at] = t;
          outs.push([]);
        }
        s = t;
      }
      (outs[s] as number[]).push(id);
    });
    const delta = trie.subarray(0, states * symbols);
    const fail = new Int32Array(states);
    // Breadth-first, turning the trie into the automaton in place: a state's failure target is
    // shallower, so its row and outputs are final when the state is reached.
    const queue = new Int32Array(states);
    let tail = 0;
    for (let sym = 1; sym < symbols; sym++) if (delta[sym] !== 0) queue[tail++] = delta[sym] as number;
    for (let q = 0; q < tail; q++) {
      const s = queue[q] as number;
      const f = fail[s] as number;
      if ((outs[f] as number[]).length > 0) (outs[s] as number[]).push(...(outs[f] as number[]));
      const row = s * symbols;
      const failRow = f * symbols;
      for (let sym = 0; sym < symbols; sym++) {
        const t = delta[row + sym] as number;
        if (t === 0) delta[row + sym] = delta[failRow + sym] as number;
        else {
          fail[t] = s === 0 ? 0 : (delta[failRow + sym] as number);
          queue[tail++] = t;
        }
      }
    }
    // Root transitions on unknown symbols (0) stay at the root; a root child's failure is the root.
    // (A copy: the trie's table was sized for the worst case.)
    this.delta = delta.slice();
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
    const outStart = this.outStart;
    for (let s = 0; s < states; s++) {
      for (let c = 0; c < 128; c++) {
        const t = delta[s * symbols + (this.ascii[c] as number)] as number;
        this.ascii128[s * 128 + c] = (outStart[t + 1] as number) > (outStart[t] as number) ? ~t : t;
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

  /**
   * The ASCII columns as step() reads them (row s * 128 + character code; a target with outputs
   * complemented), for a walk that inlines the step: `t = asciiTable[(s << 7) | c]` for c < 128.
   */
  get asciiTable(): Int32Array {
    return this.ascii128;
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
