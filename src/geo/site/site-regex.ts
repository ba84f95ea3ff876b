// Compiles a `regexp:` rule (RE2 syntax) for the matcher: patterns built only from constructs that
// mean the same in RE2 and in a JavaScript `u` RegExp are rewritten for V8's native engine; any
// other pattern runs on re2js. Also finds a literal every match must contain (the prefilter).
//   pattern -> RE2JS.compile (validity) -> translate (safe subset) -> RegExp | re2js
import { RE2JS } from 're2js';
import { GeoError } from '../errors.js';

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
  test(input: string): boolean;
}

/** Compiles one RE2 pattern; throws GeoError('regexp_invalid') when RE2 rejects it. */
export function compileSiteRegex(pattern: string): SiteRegex {
  const translated = translateRe2(pattern);
  // What the translator accepts RE2 accepts too (test/geo/matcher-site.test.ts checks it over
  // random patterns), except a count on a group, whose nested counts RE2 limits: only then, and
  // for every pattern left to re2js, is RE2's own parser asked (it costs about 0.1 ms a pattern,
  // a fifth of loading every list of a geosite.dat).
  let re2: RE2JS | undefined;
  if (!translated || translated.countedGroup) {
    try {
      re2 = RE2JS.compile(pattern);
    } catch (err) {
      throw new GeoError('regexp_invalid', `invalid regexp "${pattern}": ${(err as Error).message}`);
    }
  }
  if (translated) {
    const re = new RegExp(translated.source, 'u');
    return {
      pattern,
      engine: 'native',
      literal: translated.literal,
      dotless: translated.dotless,
      test: (input) => re.test(input),
    };
  }
  const engine = re2 as RE2JS;
  return { pattern, engine: 're2js', literal: '', dotless: false, test: (input) => engine.test(input) };
}

/** JavaScript source with the same meaning as an RE2 pattern, plus a required literal. */
export interface TranslatedRegex {
  readonly source: string;
  readonly literal: string;
  /** No string containing `.` can match (anchored at both ends, no part matches a dot). */
  readonly dotless: boolean;
  /** A `{n,m}` count applies to a group (RE2 limits the product of nested counts). */
  readonly countedGroup: boolean;
}

const DOT = 46;

const WHITESPACE = '\\t\\n\\f\\r ';

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
        out += `\\${next}`;
        atom = next !== 'b';
        runChar = '';
        endRun();
      } else if (next === 's' || next === 'S') {
        if (next === 'S') dotPossible = true;
        out += next === 's' ? `[${WHITESPACE}]` : `[^${WHITESPACE}]`;
        atom = true;
        runChar = '';
        endRun();
      } else if (isAsciiPunct(n)) {
        if (n === DOT) dotPossible = true;
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
      depth++;
      atom = false;
      runChar = '';
      endRun();
      continue;
    }
    if (ch === ')') {
      if (depth === 0) return undefined;
      depth--;
      out += ')';
      atom = true;
      groupAtom = true;
      runChar = '';
      endRun();
      continue;
    }
    if (ch === '|') {
      if (depth === 0) topLevelAlternation = true;
      out += '|';
      atom = false;
      runChar = '';
      endRun();
      continue;
    }
    if (ch === '^' || ch === '$') {
      endsWithDollar = ch === '$';
      out += ch;
      atom = false;
      runChar = '';
      endRun();
      continue;
    }
    if (ch === '.') {
      dotPossible = true;
      out += '[^\\n]';
      atom = true;
      runChar = '';
      endRun();
      continue;
    }
    if (ch === '*' || ch === '+' || ch === '?' || ch === '{') {
      if (!atom) return undefined;
      let q = ch;
      if (ch === '{') {
        const close = cps.indexOf('}', i);
        if (close === -1) return undefined;
        const body = cps.slice(i, close).join('');
        const m = /^(\d{1,4})(,(\d{1,4})?)?$/.exec(body);
        if (!m) return undefined;
        const min = Number(m[1]);
        const max = m[3] === undefined ? min : Number(m[3]);
        if (min > 1000 || max > 1000 || (m[3] !== undefined && max < min)) return undefined;
        if (afterGroup) countedGroup = true;
        q = `{${body}}`;
        i = close + 1;
      }
      if (cps[i] === '?') {
        q += '?';
        i++;
      }
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
      out += hex(c);
      atom = true;
      if (depth === 0) {
        run += ch;
        runChar = ch;
      }
      continue;
    }
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
  };
}

/** Translates a class starting after `[` at cps[from]; returns the source and the index after `]`. */
function translateClass(
  cps: readonly string[],
  from: number,
): { source: string; end: number; dot: boolean } | undefined {
  let i = from;
  let out = '[';
  // Whether the class can match a dot: a negated class (conservatively), \D or \W, `.` itself,
  // or a range around it.
  let dot = false;
  if (cps[i] === '^') {
    out += '^';
    dot = true;
    i++;
  }
  // `[]a]` holds `]` in RE2 but is an empty class in JavaScript; `[[:alpha:]]` is RE2-only.
  if (cps[i] === ']') return undefined;
  const first = i;
  /** Reads one class member: a single character (code point) or a class escape (code -1). */
  const member = (): { code: number; source: string } | undefined => {
    const ch = cps[i];
    if (ch === undefined) return undefined;
    i++;
    if (ch === '\\') {
      const next = cps[i];
      if (next === undefined) return undefined;
      i++;
      if ('dDwW'.includes(next)) {
        if (next === 'D' || next === 'W') dot = true;
        return { code: -1, source: `\\${next}` };
      }
      if (next === 's') return { code: -1, source: WHITESPACE };
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
    if (cps[i] === ']') return { source: `${out}]`, end: i + 1, dot };
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
      out += `${lo.source}-${hi.source}`;
    } else {
      if (lo.code === DOT) dot = true;
      out += lo.source;
    }
  }
}
