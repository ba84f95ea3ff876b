// Compiles a `regexp:` rule (RE2 syntax) for the matcher: patterns built only from constructs that
// mean the same in RE2 and in a JavaScript `u` RegExp, and whose backtracking is bounded, run on
// V8's native engine; any other runs on re2js. Also finds a literal every match must contain.
//   pattern -> translate (safe subset, parse tree) -> backtracking bound -> RegExp | re2js
import { RE2JS } from 're2js';
import { GeoError } from '../errors.js';
import { backtrackBounded } from './regex-backtrack-bound.js';
import { complementRanges, normalizeRanges, type RegexNode, RegexTreeBuilder } from './regex-tree.js';

/** A compiled regexp rule: `test` searches (unanchored unless the pattern anchors). */
export interface SiteRegex {
  readonly pattern: string;
  /** `native` when it runs as a JavaScript RegExp, `re2js` otherwise. */
  readonly engine: 'native' | 're2js';
  /** A substring every match contains ('' when none is known); lets the matcher skip the regex. */
  readonly literal: string;
  /**
   * True when no string containing a dot can match (the pattern is anchored at both ends and no
   * part of it matches `.`), so the matcher skips it for dotted names. False when not known.
   */
  readonly dotless: boolean;
  /**
   * When the pattern ends with single characters and `$`, the character sets a match's last
   * characters must fall in, last character first (code point ranges, [lo, hi] pairs); empty
   * when not known. A name whose end does not fit cannot match.
   */
  readonly tail: readonly (readonly number[])[];
  test(input: string): boolean;
}

/**
 * Compiles one RE2 pattern; throws GeoError('regexp_invalid') when RE2 rejects it. Runs natively
 * only what translates and backtracks in bounded time (regex-backtrack-bound.ts), else on re2js.
 * Validity, the literal and `dotless` are settled here; the engine on first use (a geosite.dat
 * holds over a hundred patterns, most of which never run in a given process, and the bound's
 * analysis of the ambiguous ones costs more than the rest of loading them).
 */
export function compileSiteRegex(pattern: string): SiteRegex {
  const translated = translateRe2(pattern);
  // What the translator accepts RE2 accepts too (test/geo/matcher-site.test.ts checks it over
  // random patterns), except a count on a group, whose nested counts RE2 limits: only then, and
  // for every pattern left to re2js, is RE2's own parser asked (it costs about 0.1 ms a pattern,
  // a fifth of loading every list of a geosite.dat).
  const re2 = !translated || translated.countedGroup ? compileRe2(pattern) : undefined;
  return new LazySiteRegex(pattern, translated, re2);
}

/** A pattern already known valid, whose engine is chosen (and compiled) when first needed. */
class LazySiteRegex implements SiteRegex {
  readonly literal: string;
  readonly dotless: boolean;
  readonly tail: readonly (readonly number[])[];
  private run: ((input: string) => boolean) | undefined;
  private chosen: 'native' | 're2js' | undefined;

  constructor(
    readonly pattern: string,
    private readonly translated: TranslatedRegex | undefined,
    private re2: RE2JS | undefined,
  ) {
    // A translated pattern keeps its literal and `dotless` whichever engine runs it: they follow
    // from its meaning, and spare the engine most queries.
    this.literal = translated?.literal ?? '';
    this.dotless = translated?.dotless ?? false;
    this.tail = translated ? endTail(translated.tree) : [];
  }

  get engine(): 'native' | 're2js' {
    this.chosen ??= this.translated && backtrackBounded(this.translated.tree) ? 'native' : 're2js';
    return this.chosen;
  }

  /** Searches the input (a property, so it may be passed around on its own). */
  readonly test = (input: string): boolean => {
    if (this.run === undefined) {
      if (this.engine === 'native') {
        const re = new RegExp((this.translated as TranslatedRegex).source, 'u');
        this.run = (text) => re.test(text);
      } else {
        // Valid RE2 (checked when made), so this compiles.
        const re2 = this.re2 ?? compileRe2(this.pattern);
        this.re2 = re2;
        this.run = (text) => re2.test(text);
      }
    }
    return this.run(input);
  };
}

/** Longest tail kept: enough to tell most names apart, cheap to check. */
const MAX_TAIL = 16;

/**
 * The character sets of the single characters just before a final `$` (as a sequence at the top,
 * not inside an alternation), last first; a count `{n}` of one character (n <= MAX_TAIL) counts
 * as n of them. Anything else before them ends the tail.
 */
export function endTail(tree: RegexNode): (readonly number[])[] {
  if (tree.kind !== 'seq') return [];
  const items = tree.items;
  const last = items[items.length - 1];
  if (last?.kind !== 'assert' || last.at !== 'end') return [];
  const tail: (readonly number[])[] = [];
  for (let k = items.length - 2; k >= 0 && tail.length < MAX_TAIL; k--) {
    const item = items[k] as RegexNode;
    if (item.kind === 'chars') tail.push(item.ranges);
    else if (
      item.kind === 'repeat' &&
      item.min === item.max &&
      item.body.kind === 'chars' &&
      item.min <= MAX_TAIL
    ) {
      for (let n = 0; n < item.min && tail.length < MAX_TAIL; n++) tail.push(item.body.ranges);
    } else break;
  }
  return tail;
}

function compileRe2(pattern: string): RE2JS {
  try {
    return RE2JS.compile(pattern);
  } catch (err) {
    throw new GeoError('regexp_invalid', `invalid regexp "${pattern}": ${(err as Error).message}`);
  }
}

/** JavaScript source with the same meaning as an RE2 pattern, plus a required literal. */
export interface TranslatedRegex {
  readonly source: string;
  readonly literal: string;
  /** No string containing `.` can match (anchored at both ends, no part matches a dot). */
  readonly dotless: boolean;
  /** A `{n,m}` count applies to a group (RE2 limits the product of nested counts). */
  readonly countedGroup: boolean;
  /** The pattern's parse, for the backtracking bound. */
  readonly tree: RegexNode;
}

const DOT = 46;

/** Groups nested deeper than this are not translated. */
const MAX_DEPTH = 100;

const WHITESPACE = '\\t\\n\\f\\r ';

/** Code point ranges of the ASCII classes `\d \w \s` (RE2's `\s`: tab, LF, FF, CR, space). */
const CLASS_RANGES: Readonly<Record<string, readonly number[]>> = {
  d: [48, 57],
  w: [48, 57, 65, 90, 95, 95, 97, 122],
  s: [9, 10, 12, 13, 32, 32],
};

/** Ranges of `\d \D \w \W \s \S`. */
function escapeRanges(letter: string): readonly number[] {
  const own = CLASS_RANGES[letter];
  if (own) return own;
  return complementRanges(CLASS_RANGES[letter.toLowerCase()] as readonly number[]);
}

/** `.` (no flags): anything but a newline. */
const DOT_RANGES = complementRanges([10, 10]);

function hex(code: number): string {
  return `\\u{${code.toString(16)}}`;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isAsciiPunct(c: number): boolean {
  return c > 32 && c < 127 && !isAlnum(c);
}

/**
 * Rewrites an RE2 pattern (already accepted by RE2) as JavaScript `u`-flag source with the same
 * matches, or returns undefined when it uses anything outside the subset whose meaning is known
 * to agree: literals, escaped punctuation, `.` (as `[^\n]`), `\d \D \w \W \b` (ASCII in both),
 * `\s` (as RE2's `[\t\n\f\r ]`), classes with ranges, `^ $` (text start/end: no multiline flag in
 * either), `|`, `( )`, `(?: )`, and `* + ? {n} {n,} {n,m}` with an optional lazy `?` after an atom.
 */
export function translateRe2(pattern: string): TranslatedRegex | undefined {
  let out = '';
  let depth = 0;
  let topLevelAlternation = false;
  // The longest run of unquantified literal characters at depth 0.
  let run = '';
  let best = '';
  // The longest run that does not end the pattern: a run just before a final `$` is mostly a
  // top-level domain (`.com`), found in most names, so a rarer one is a better prefilter.
  let bestInner = '';
  let lastRun = '';
  let runChar = ''; // the last literal added to run (removed again if a quantifier follows)
  let atom = false; // whether the last token can take a quantifier
  // For `dotless`: whether some part can match a dot, and whether the last token was `$`.
  let dotPossible = false;
  let endsWithDollar = false;
  let groupAtom = false; // the last token was `)`
  let countedGroup = false;
  const tree = new RegexTreeBuilder();
  const endRun = () => {
    if (run === '') return;
    if (run.length > best.length) best = run;
    if (lastRun.length > bestInner.length) bestInner = lastRun;
    lastRun = run;
    run = '';
  };
  const cps = Array.from(pattern);
  let i = 0;
  while (i < cps.length) {
    const ch = cps[i] as string;
    const c = ch.codePointAt(0) as number;
    i++;
    endsWithDollar = false;
    const afterGroup = groupAtom;
    groupAtom = false;
    if (ch === '\\') {
      const next = cps[i];
      if (next === undefined) return undefined;
      i++;
      const n = next.codePointAt(0) as number;
      // Not \B: V8 also tests it between the halves of a surrogate pair, where it holds.
      if ('dDwWb'.includes(next)) {
        if (next === 'D' || next === 'W') dotPossible = true;
        tree.atom(
          next === 'b' ? { kind: 'assert', at: 'word' } : { kind: 'chars', ranges: escapeRanges(next) },
        );
        out += `\\${next}`;
        atom = next !== 'b';
        runChar = '';
        endRun();
      } else if (next === 's' || next === 'S') {
        if (next === 'S') dotPossible = true;
        tree.atom({ kind: 'chars', ranges: escapeRanges(next) });
        out += next === 's' ? `[${WHITESPACE}]` : `[^${WHITESPACE}]`;
        atom = true;
        runChar = '';
        endRun();
      } else if (isAsciiPunct(n)) {
        if (n === DOT) dotPossible = true;
        tree.atom({ kind: 'chars', ranges: [n, n] });
        out += hex(n);
        atom = true;
        if (depth === 0) {
          run += next;
          runChar = next;
        }
      } else return undefined;
      continue;
    }
    if (ch === '[') {
      const cls = translateClass(cps, i);
      if (!cls) return undefined;
      if (cls.dot) dotPossible = true;
      tree.atom({ kind: 'chars', ranges: cls.ranges });
      out += cls.source;
      i = cls.end;
      atom = true;
      runChar = '';
      endRun();
      continue;
    }
    if (ch === '(') {
      if (cps[i] === '?') {
        if (cps[i + 1] !== ':') return undefined;
        i += 2;
        out += '(?:';
      } else out += '(';
      tree.open();
      // Deeper nesting is left to RE2 (which refuses 1000 levels) and re2js; the bound's walk
      // over the tree recurses once per level.
      if (++depth > MAX_DEPTH) return undefined;
      atom = false;
      runChar = '';
      endRun();
      continue;
    }
    if (ch === ')') {
      if (depth === 0) return undefined;
      depth--;
      tree.close();
      out += ')';
      atom = true;
      groupAtom = true;
      runChar = '';
      endRun();
      continue;
    }
    if (ch === '|') {
      if (depth === 0) topLevelAlternation = true;
      tree.bar();
      out += '|';
      atom = false;
      runChar = '';
      endRun();
      continue;
    }
    if (ch === '^' || ch === '$') {
      endsWithDollar = ch === '$';
      tree.atom({ kind: 'assert', at: ch === '^' ? 'start' : 'end' });
      out += ch;
      atom = false;
      runChar = '';
      endRun();
      continue;
    }
    if (ch === '.') {
      dotPossible = true;
      tree.atom({ kind: 'chars', ranges: DOT_RANGES });
      out += '[^\\n]';
      atom = true;
      runChar = '';
      endRun();
      continue;
    }
    if (ch === '*' || ch === '+' || ch === '?' || ch === '{') {
      if (!atom) return undefined;
      let q = ch;
      let min = ch === '+' ? 1 : 0;
      let max = ch === '?' ? 1 : Number.POSITIVE_INFINITY;
      if (ch === '{') {
        const close = cps.indexOf('}', i);
        if (close === -1) return undefined;
        const body = cps.slice(i, close).join('');
        const m = /^(\d{1,4})(,(\d{1,4})?)?$/.exec(body);
        if (!m) return undefined;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === undefined ? Number.POSITIVE_INFINITY : Number(m[3]);
        if (min > 1000 || max < min || (max > 1000 && m[3] !== undefined)) return undefined;
        if (afterGroup) countedGroup = true;
        q = `{${body}}`;
        i = close + 1;
      }
      if (cps[i] === '?') {
        q += '?';
        i++;
      }
      tree.repeat(min, max);
      out += q;
      // A quantified character is not a required part of the literal run.
      if (runChar !== '' && run.endsWith(runChar)) run = run.slice(0, -runChar.length);
      endRun();
      runChar = '';
      atom = false;
      continue;
    }
    if (ch === '}' || ch === ']') {
      // Literal in RE2; must be escaped in a `u` RegExp.
      tree.atom({ kind: 'chars', ranges: [c, c] });
      out += hex(c);
      atom = true;
      if (depth === 0) {
        run += ch;
        runChar = ch;
      }
      continue;
    }
    tree.atom({ kind: 'chars', ranges: [c, c] });
    out += isAlnum(c) ? ch : hex(c);
    atom = true;
    if (depth === 0) {
      run += ch;
      runChar = ch;
    } else runChar = '';
  }
  if (depth !== 0) return undefined;
  endRun();
  // The run before a final `$` was held back in lastRun; any other run counts as inner.
  if (!endsWithDollar && lastRun.length > bestInner.length) bestInner = lastRun;
  const literal = bestInner.length >= 2 ? bestInner : best;
  const anchored = cps[0] === '^' && endsWithDollar && !topLevelAlternation;
  return {
    source: out,
    literal: topLevelAlternation ? '' : literal,
    dotless: anchored && !dotPossible,
    countedGroup,
    tree: tree.finish(),
  };
}

/** Translates a class starting after `[` at cps[from]; returns the source and the index after `]`. */
function translateClass(
  cps: readonly string[],
  from: number,
): { source: string; end: number; dot: boolean; ranges: readonly number[] } | undefined {
  let i = from;
  let out = '[';
  let negated = false;
  const pairs: number[] = [];
  // Whether the class can match a dot: a negated class (conservatively), \D or \W, `.` itself,
  // or a range around it.
  let dot = false;
  if (cps[i] === '^') {
    out += '^';
    negated = true;
    dot = true;
    i++;
  }
  // `[]a]` holds `]` in RE2 but is an empty class in JavaScript; `[[:alpha:]]` is RE2-only.
  if (cps[i] === ']') return undefined;
  const first = i;
  /** Reads one class member: a single character (code point) or a class escape (code -1). */
  const member = (): { code: number; source: string; ranges?: readonly number[] } | undefined => {
    const ch = cps[i];
    if (ch === undefined) return undefined;
    i++;
    if (ch === '\\') {
      const next = cps[i];
      if (next === undefined) return undefined;
      i++;
      if ('dDwW'.includes(next)) {
        if (next === 'D' || next === 'W') dot = true;
        return { code: -1, source: `\\${next}`, ranges: escapeRanges(next) };
      }
      if (next === 's') return { code: -1, source: WHITESPACE, ranges: escapeRanges(next) };
      const n = next.codePointAt(0) as number;
      if (isAsciiPunct(n)) return { code: n, source: hex(n) };
      return undefined;
    }
    if (ch === '[') return undefined;
    const code = ch.codePointAt(0) as number;
    return { code, source: isAlnum(code) ? ch : hex(code) };
  };
  for (;;) {
    if (cps[i] === undefined) return undefined;
    if (cps[i] === ']') {
      const ranges = normalizeRanges(pairs);
      return { source: `${out}]`, end: i + 1, dot, ranges: negated ? complementRanges(ranges) : ranges };
    }
    const at = i;
    const lo = member();
    if (!lo) return undefined;
    // A bare `-` is literal only first or last in the class; elsewhere the meaning differs.
    if (lo.code === 45 && cps[at] === '-' && at !== first && cps[i] !== ']') return undefined;
    if (cps[i] === '-' && cps[i + 1] !== ']' && cps[i + 1] !== undefined) {
      i++;
      const hi = member();
      if (!hi || lo.code < 0 || hi.code < 0 || hi.code < lo.code) return undefined;
      if (lo.code <= DOT && DOT <= hi.code) dot = true;
      pairs.push(lo.code, hi.code);
      out += `${lo.source}-${hi.source}`;
    } else {
      if (lo.code === DOT) dot = true;
      if (lo.ranges) pairs.push(...lo.ranges);
      else pairs.push(lo.code, lo.code);
      out += lo.source;
    }
  }
}
