// The parse of a translated regexp rule as a small tree (character sets, zero-width assertions,
// sequences, alternations, counted repetition), built token by token by translateRe2 and read by
// the backtracking bound (regex-backtrack-bound.ts). Character sets are code point ranges.

/**
 * A node of a regexp's parse: a character set (sorted, disjoint, inclusive [lo, hi] pairs), an
 * assertion (`^`, `$`, `\b`), a sequence, an alternation, or `{min,max}` (max Infinity if none).
 */
export type RegexNode =
  | { readonly kind: 'chars'; readonly ranges: readonly number[] }
  | { readonly kind: 'assert'; readonly at: 'start' | 'end' | 'word' }
  | { readonly kind: 'seq'; readonly items: readonly RegexNode[] }
  | { readonly kind: 'alt'; readonly branches: readonly RegexNode[] }
  | { readonly kind: 'repeat'; readonly min: number; readonly max: number; readonly body: RegexNode };

/** The largest code point. */
export const MAX_CODE_POINT = 0x10ffff;

/** Sorts and merges [lo, hi] pairs (overlapping or adjacent ones join). */
export function normalizeRanges(pairs: readonly number[]): number[] {
  const list: [number, number][] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) list.push([pairs[i] as number, pairs[i + 1] as number]);
  list.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of list) {
    const last = out.length - 1;
    if (last > 0 && lo <= (out[last] as number) + 1) out[last] = Math.max(out[last] as number, hi);
    else out.push(lo, hi);
  }
  return out;
}

/** The code points not in a normalized range list. */
export function complementRanges(ranges: readonly number[]): number[] {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    const lo = ranges[i] as number;
    if (lo > next) out.push(next, lo - 1);
    next = (ranges[i + 1] as number) + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

/** Builds the tree while a pattern is read left to right: atoms, `(`, `|`, `)` and quantifiers. */
export class RegexTreeBuilder {
  /** Open groups, innermost last: each a list of branches, each branch a list of items. */
  private readonly frames: RegexNode[][][] = [[[]]];

  private branch(): RegexNode[] {
    const frame = this.frames[this.frames.length - 1] as RegexNode[][];
    return frame[frame.length - 1] as RegexNode[];
  }

  /** Appends a character set or an assertion to the current branch. */
  atom(node: RegexNode): void {
    this.branch().push(node);
  }

  /** Opens a group. */
  open(): void {
    this.frames.push([[]]);
  }

  /** Starts another branch of the innermost group (or of the whole pattern). */
  bar(): void {
    (this.frames[this.frames.length - 1] as RegexNode[][]).push([]);
  }

  /** Closes the innermost group; it becomes one item of the enclosing branch. */
  close(): void {
    const frame = this.frames.pop() as RegexNode[][];
    this.branch().push(alternation(frame));
  }

  /** Applies `{min,max}` (max Infinity when unbounded) to the last item of the current branch. */
  repeat(min: number, max: number): void {
    const items = this.branch();
    const body = items.pop();
    if (body) items.push({ kind: 'repeat', min, max, body });
  }

  /** The tree of the whole pattern (every group closed). */
  finish(): RegexNode {
    return alternation(this.frames[0] as RegexNode[][]);
  }
}

function alternation(branches: readonly RegexNode[][]): RegexNode {
  const nodes = branches.map((items): RegexNode => ({ kind: 'seq', items }));
  return nodes.length === 1 ? (nodes[0] as RegexNode) : { kind: 'alt', branches: nodes };
}
