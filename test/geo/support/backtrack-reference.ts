// A plain backtracking matcher over a regexp's parse tree that explores every path (no early stop)
// and counts how often each character of the pattern is tried at each input position from one
// start: the independent check of the static backtracking bound (src/geo/site/regex-backtrack-bound.ts).
// A character inside counted repetition is counted per iteration, as the bound expands it.
import type { RegexNode } from '../../../src/geo/site/regex-tree.js';

/** What exploring every backtracking path of a pattern on one input found. */
export interface BacktrackCount {
  /** Whether some start position and path matched (the pattern's answer on the input). */
  readonly matched: boolean;
  /** The most tries of one pattern character (or of the pattern's end) at one input position from one start. */
  readonly maxTries: number;
  /** Whether maxTries passed the given limit (the exploration stopped there). */
  readonly exceeded: boolean;
}

class Exceeded extends Error {}

const isWord = (c: number | undefined): boolean =>
  c !== undefined && ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || (c >= 97 && c <= 122));

function inRanges(ranges: readonly number[], c: number): boolean {
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    if (c >= (ranges[i] as number) && c <= (ranges[i + 1] as number)) return true;
  }
  return false;
}

/** Explores every path of `tree` on `input` from every start; stops once a count passes `limit`. */
export function countBacktracking(tree: RegexNode, input: string, limit: number): BacktrackCount {
  const text = Array.from(input, (ch) => ch.codePointAt(0) as number);
  const ids = new Map<RegexNode, number>();
  const id = (node: RegexNode): number => {
    let n = ids.get(node);
    if (n === undefined) {
      n = ids.size;
      ids.set(node, n);
    }
    return n;
  };
  let matched = false;
  let maxTries = 0;
  let counts = new Map<string, number>();
  const tried = (key: string): void => {
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    if (n > maxTries) maxTries = n;
    if (n > limit) throw new Exceeded();
  };
  // `copy` names the iteration of every enclosing repetition; `next` continues after the node.
  const run = (node: RegexNode, pos: number, copy: string, next: (pos: number) => void): void => {
    switch (node.kind) {
      case 'chars': {
        tried(`${copy}|${id(node)}@${pos}`);
        const c = text[pos];
        if (c !== undefined && inRanges(node.ranges, c)) next(pos + 1);
        return;
      }
      case 'assert': {
        const holds =
          node.at === 'start'
            ? pos === 0
            : node.at === 'end'
              ? pos === text.length
              : isWord(text[pos - 1]) !== isWord(text[pos]);
        if (holds) next(pos);
        return;
      }
      case 'seq': {
        const from = (i: number, p: number): void => {
          const item = node.items[i];
          if (item === undefined) next(p);
          else run(item, p, copy, (q) => from(i + 1, q));
        };
        from(0, pos);
        return;
      }
      case 'alt':
        for (const branch of node.branches) run(branch, pos, copy, next);
        return;
      case 'repeat': {
        const { min, max, body } = node;
        // Iterations past the first `min` (at least one) of an unbounded loop share one copy.
        const copyOf = (k: number): number =>
          max === Number.POSITIVE_INFINITY ? Math.min(k, Math.max(min, 1)) : k;
        const iterate = (done: number, p: number): void => {
          if (done < max) {
            run(body, p, `${copy}/${id(node)}.${copyOf(done + 1)}`, (q) => {
              // An unbounded loop stops on an iteration that read nothing (as JavaScript does).
              if (max === Number.POSITIVE_INFINITY && q === p && done >= min) return;
              iterate(done + 1, q);
            });
          }
          if (done >= min) next(p);
        };
        iterate(0, pos);
        return;
      }
    }
  };
  try {
    for (let start = 0; start <= text.length; start++) {
      counts = new Map();
      run(tree, start, '', (pos) => {
        tried(`end@${pos}`);
        matched = true;
      });
    }
  } catch (err) {
    if (!(err instanceof Exceeded)) throw err;
    return { matched, maxTries, exceeded: true };
  }
  return { matched, maxTries, exceeded: false };
}
