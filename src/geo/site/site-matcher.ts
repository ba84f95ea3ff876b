// Matches a domain against compiled site lists and reports every list (or `code@attr` selector)
// with a rule that matches, as v2ray does: full = the name, domain = the name or a subdomain,
// keyword = substring, regexp = RE2 search. Compiled once; a lookup allocates nothing:
//   name -> one trailing dot dropped
//        -> one right-to-left walk: a hash of each label suffix probed in the DomainTable (full /
//           domain rules) and an Aho-Corasick automaton over the reversed keywords and regexp
//           literals (lower case is checked on the way; a name that needs it is walked again)
//        -> candidate regexps (skipped: one that cannot match a dotted name, for one; one whose
//           fixed tail before `$` does not fit the name's end)
//        -> list indexes into the caller's Uint32Array, ascending

import { GeoError } from '../errors.js';
import { parseListSelector, selectRules } from '../formats/list-text.js';
import { DomainType, type SiteList } from '../model.js';
import { decodeUtf8 } from '../wire/wire-reader.js';
import { DomainTable, hashStep } from './domain-table.js';
import { KeywordAutomaton } from './keyword-automaton.js';
import { compileSiteRegex, type SiteRegex } from './site-regex.js';

/** Groups of target indexes, flattened: group g holds ids[start[g], start[g + 1]). */
class Groups {
  readonly start: Int32Array;
  readonly ids: Int32Array;

  /** Room for `count` groups of `total` ids in all, which the caller fills. */
  constructor(count: number, total: number) {
    this.start = new Int32Array(count + 1);
    this.ids = new Int32Array(total);
  }

  static of(sets: readonly (readonly number[])[]): Groups {
    let total = 0;
    for (const set of sets) total += set.length;
    const g = new Groups(sets.length, total);
    let at = 0;
    sets.forEach((set, k) => {
      g.start[k] = at;
      g.ids.set(set, at);
      at += set.length;
    });
    g.start[sets.length] = at;
    return g;
  }
}

/**
 * A name's value in the table when it has one target (most names): target t, of a full rule
 * when `full` is 1. Always > 0 (0 means no target; < 0 is ~group for names with several); read
 * back as t = (v - 1) >>> 1 and full = (v - 1) & 1.
 */
function oneTarget(t: number, full: number): number {
  return ((t << 1) | full) + 1;
}

/** Adds t to the set of key in a map of arrays (targets arrive in ascending order, once each). */
function addTarget(sets: number[][], key: number, t: number): void {
  let set = sets[key];
  if (!set) {
    set = [];
    sets[key] = set;
  }
  if (set[set.length - 1] !== t) set.push(t);
}

/**
 * Targets per name of the domain table, as linked lists in typed arrays (most names belong to one
 * list; a JS array per name would cost far more than the name): head[name] -> node -> next ...
 */
class NameTargets {
  /** Node + 1 of each name's first target (0: none), so a fresh zeroed array needs no fill. */
  head: Int32Array;
  target: Int32Array;
  /** Node + 1 of the next target (0: end). */
  next: Int32Array;
  nodes = 0;

  constructor(names: number, nodes: number) {
    this.head = new Int32Array(Math.max(16, names));
    this.target = new Int32Array(Math.max(16, nodes));
    this.next = new Int32Array(Math.max(16, nodes));
  }

  /** Adds t to a name's targets unless it is the last one added (targets come in order). */
  add(name: number, t: number): void {
    if (name >= this.head.length) {
      const grown = new Int32Array(Math.max(this.head.length * 2, name + 1));
      grown.set(this.head);
      this.head = grown;
    }
    const h = this.head[name] as number;
    if (h !== 0 && this.target[h - 1] === t) return;
    if (this.nodes === this.target.length) {
      const target = new Int32Array(this.nodes * 2);
      target.set(this.target);
      this.target = target;
      const next = new Int32Array(this.nodes * 2);
      next.set(this.next);
      this.next = next;
    }
    this.target[this.nodes] = t;
    this.next[this.nodes] = h;
    this.head[name] = ++this.nodes;
  }

  /** Makes head cover every name (a name with no targets here reads 0). */
  seal(names: number): void {
    if (this.head.length < names) {
      const grown = new Int32Array(names);
      grown.set(this.head);
      this.head = grown;
    }
  }
}

/**
 * The targets of the names with several, as groups (group m: name ~value's domain-rule targets,
 * then from fullAt[m] its full-rule targets).
 */
function nameGroups(b: SiteMatcherBuilder): { groups: Groups; fullAt: Int32Array } {
  const { root, full, multiCount } = b;
  // Every node of the lists belongs to a name with several targets.
  const groups = new Groups(multiCount, root.nodes + full.nodes);
  const fullAt = new Int32Array(multiCount);
  let o = 0;
  for (let m = 0; m < multiCount; m++) {
    groups.start[m] = o;
    for (let node = root.head[m] as number; node !== 0; node = root.next[node - 1] as number)
      groups.ids[o++] = root.target[node - 1] as number;
    fullAt[m] = o;
    for (let node = full.head[m] as number; node !== 0; node = full.next[node - 1] as number)
      groups.ids[o++] = full.target[node - 1] as number;
  }
  groups.start[multiCount] = o;
  return { groups, fullAt };
}

/**
 * Builds a SiteMatcher target by target, from rule objects or straight from a file's bytes:
 *   beginTarget(label) -> addRule / addRuleBytes ... -> beginTarget ... -> build()
 * full and domain names go into one DomainTable (a character pool), keywords and regexps (a few
 * hundred in the whole dlc) into maps.
 */
export class SiteMatcherBuilder {
  readonly codes: string[] = [];
  private readonly labels = new Set<string>();
  readonly table: DomainTable;
  /**
   * Targets of the names with more than one (most have one, kept in the table as the name's
   * value; see SiteMatcher.table), by multi index: full rules' and domain rules'.
   */
  readonly full: NameTargets;
  readonly root: NameTargets;
  multiCount = 0;
  readonly keywordIds = new Map<string, number>();
  readonly keywordSets: number[][] = [];
  readonly regexIds = new Map<string, number>();
  readonly regexSets: number[][] = [];
  readonly regexes: SiteRegex[] = [];
  readonly everyName: number[] = [];
  private current = -1;
  private listName = '';

  /**
   * `sizeHint`: the bytes of rules to come (a .dat file's size), used to size the arrays once
   * (upper bounds; untouched pages cost nothing) instead of growing them by doubling.
   */
  constructor(sizeHint = 0) {
    // A Domain message with a one-character value takes at least 7 bytes; a real one about 21
    // (upstream dlc.dat: 2.28 MB for 109,236 rules).
    const rules = Math.ceil(sizeHint / 16);
    this.table = new DomainTable(sizeHint, rules, Math.ceil(sizeHint / 24));
    this.full = new NameTargets(rules, rules);
    this.root = new NameTargets(rules, rules);
  }

  /**
   * Starts the next target (a list code or `CODE@ATTR` selector); false when the label is a
   * repeat (its rules are skipped). `list` names the list in errors.
   */
  beginTarget(label: string, list = label): boolean {
    if (this.labels.has(label)) {
      this.current = -1;
      return false;
    }
    this.current = this.codes.length;
    this.codes.push(label);
    this.labels.add(label);
    this.listName = list;
    return true;
  }

  /** Adds a rule to the current target. */
  addRule(type: number, value: string): void {
    const t = this.current;
    if (t === -1) return;
    if (type === DomainType.Full) this.addName(this.table.add(value.toLowerCase()), t, 1);
    else if (type === DomainType.RootDomain) this.addName(this.table.add(value.toLowerCase()), t, 0);
    else this.addOther(type, value, t);
  }

  /** Adds a rule whose value is UTF-8 in bytes[from, to) to the current target. */
  addRuleBytes(type: number, bytes: Uint8Array, from: number, to: number): void {
    const t = this.current;
    if (t === -1) return;
    if (type === DomainType.Full) this.addName(this.table.addBytes(bytes, from, to), t, 1);
    else if (type === DomainType.RootDomain) this.addName(this.table.addBytes(bytes, from, to), t, 0);
    else this.addOther(type, decodeUtf8(bytes, from, to), t);
  }

  /**
   * Adds target t to name `id` (a full rule's when `full` is 1). The first target is the name's
   * value in the table; a second moves the name to a multi index with linked lists. Targets come
   * in ascending order, so a repeat is the last one added.
   */
  private addName(id: number, t: number, full: number): void {
    const table = this.table;
    const v = table.value(id);
    const code = oneTarget(t, full);
    if (v === 0) {
      table.setValue(id, code);
      return;
    }
    if (v === code) return;
    let m: number;
    if (v > 0) {
      m = this.multiCount++;
      table.setValue(id, ~m);
      (((v - 1) & 1) === 1 ? this.full : this.root).add(m, (v - 1) >>> 1);
    } else m = ~v;
    (full === 1 ? this.full : this.root).add(m, t);
  }

  private addOther(type: number, value: string, t: number): void {
    switch (type) {
      case DomainType.Plain: {
        const keyword = value.toLowerCase();
        if (keyword === '') {
          if (this.everyName[this.everyName.length - 1] !== t) this.everyName.push(t);
          return;
        }
        let id = this.keywordIds.get(keyword);
        if (id === undefined) {
          id = this.keywordIds.size;
          this.keywordIds.set(keyword, id);
        }
        addTarget(this.keywordSets, id, t);
        return;
      }
      case DomainType.Regex: {
        let id = this.regexIds.get(value);
        if (id === undefined) {
          id = this.regexIds.size;
          this.regexIds.set(value, id);
          try {
            this.regexes.push(compileSiteRegex(value));
          } catch (err) {
            if (err instanceof GeoError)
              throw new GeoError(err.code, `list ${this.listName}: ${err.message}`);
            throw err;
          }
        }
        addTarget(this.regexSets, id, t);
        return;
      }
      default:
        throw new GeoError('dat_corrupt', `list ${this.listName}: unknown rule type ${type}`);
    }
  }

  /**
   * The matcher over every target begun. Call it once: the matcher takes over the builder's
   * table (each name's targets become its value there).
   */
  build(): SiteMatcher {
    this.full.seal(this.multiCount);
    this.root.seal(this.multiCount);
    return SiteMatcher.fromBuilder(this);
  }
}

/** The normalized form of a query: one trailing dot dropped, lower case (a copy only if needed). */
export function normalizeDomain(domain: string): string {
  let end = domain.length;
  if (end > 0 && domain.charCodeAt(end - 1) === 46) end--;
  let lower = true;
  for (let k = 0; k < end; k++) {
    const c = domain.charCodeAt(k);
    if ((c >= 65 && c <= 90) || c >= 128) {
      lower = false;
      break;
    }
  }
  const name = end === domain.length ? domain : domain.slice(0, end);
  return lower ? name : name.toLowerCase();
}

/**
 * A compiled set of site lists; `codes[i]` names what index i in a match result stands for.
 * Lookups reuse per-matcher scratch state: call one at a time (never from inside another).
 */
export class SiteMatcher {
  /** What each result index stands for: a list code (`GOOGLE`) or a selector (`GOOGLE@ADS`). */
  readonly codes: readonly string[];
  /**
   * Patterns of regexp rules that run on re2js (outside the subset run as native RegExp, or
   * whose backtracking is not bounded); settles every pattern's engine when first asked.
   */
  get re2jsPatterns(): readonly string[] {
    return this.regexes.filter((r) => r.engine === 're2js').map((r) => r.pattern);
  }
  /** Number of distinct regexp patterns. */
  readonly regexCount: number;

  /**
   * Full and domain names; each name's value says what it matches (set by the builder): > 0 one
   * target (oneTarget: (v - 1) >>> 1, of a full rule when (v - 1) & 1); < 0 the group ~v of
   * nameGroups; 0 nothing. One target (most names) is read from the record the probe loaded.
   */
  private readonly table: DomainTable;
  /** Targets of names with more than one: group g's domain rules are ids[start[g], fullAt[g]). */
  private readonly nameGroups: Groups;
  /** Where group g's full-rule targets begin (they end at start[g + 1]). */
  private readonly fullAt: Int32Array;
  private readonly automaton: KeywordAutomaton;
  /** Automaton ids below this are keywords; from it on, regexp literals. */
  private readonly keywordCount: number;
  private readonly keywordGroups: Groups;
  /** Regexp indexes per literal (automaton id - keywordCount). */
  private readonly literalRegexes: Groups;
  private readonly regexes: SiteRegex[];
  private readonly regexGroups: Groups;
  /** Regexps with no required literal: run on every query. */
  private readonly unfilteredRegexes: Int32Array;
  /** 1 for a regexp no dotted name can match (SiteRegex.dotless). */
  private readonly regexDotless: Uint8Array;
  /**
   * Per regexp, its tail (SiteRegex.tail) as ASCII bitmaps: position t of regexp r is the 128-bit
   * set at tailBits[(tailStart[r] + t) * 4], t counting from the name's last character.
   */
  private readonly tailStart: Int32Array;
  private readonly tailLength: Uint8Array;
  private readonly tailBits: Uint32Array;
  /** Whether the name being looked up holds a dot (set by the label walk). */
  private dotted = false;
  /** Targets of empty keywords: they match every name. */
  private readonly everyName: Int32Array;

  // Per-lookup state, reused: a stamp per target and per regexp instead of clearing sets.
  private epoch = 0;
  private readonly seen: Uint32Array;
  private readonly regexSeen: Uint32Array;
  private readonly candidates: Int32Array;
  private candidateCount = 0;
  private out: Uint32Array = new Uint32Array(0);
  private count = 0;
  private readonly onKeyword = (id: number): void => this.keywordHit(id);

  private constructor(b: SiteMatcherBuilder) {
    this.codes = b.codes;
    this.table = b.table;
    const named = nameGroups(b);
    this.nameGroups = named.groups;
    this.fullAt = named.fullAt;
    this.regexes = b.regexes;
    const dense = (sets: number[][], n: number) => Array.from({ length: n }, (_, k) => sets[k] ?? []);
    this.keywordCount = b.keywordIds.size;
    this.keywordGroups = Groups.of(dense(b.keywordSets, b.keywordIds.size));
    this.regexGroups = Groups.of(dense(b.regexSets, b.regexIds.size));
    this.regexCount = this.regexes.length;
    const literalIds = new Map<string, number>();
    const literalSets: number[][] = [];
    const unfiltered: number[] = [];
    this.regexes.forEach((re, r) => {
      if (re.literal === '') {
        unfiltered.push(r);
        return;
      }
      let id = literalIds.get(re.literal);
      if (id === undefined) {
        id = literalIds.size;
        literalIds.set(re.literal, id);
      }
      addTarget(literalSets, id, r);
    });
    this.literalRegexes = Groups.of(dense(literalSets, literalIds.size));
    this.unfilteredRegexes = Int32Array.from(unfiltered);
    this.regexDotless = Uint8Array.from(this.regexes, (re) => (re.dotless ? 1 : 0));
    this.tailStart = new Int32Array(this.regexes.length);
    this.tailLength = new Uint8Array(this.regexes.length);
    let tails = 0;
    for (const re of this.regexes) tails += re.tail.length;
    this.tailBits = new Uint32Array(tails * 4);
    tails = 0;
    this.regexes.forEach((re, r) => {
      this.tailStart[r] = tails;
      this.tailLength[r] = re.tail.length;
      for (const ranges of re.tail) {
        for (let i = 0; i + 1 < ranges.length; i += 2) {
          for (let c = ranges[i] as number; c <= (ranges[i + 1] as number) && c < 128; c++)
            this.tailBits[tails * 4 + (c >>> 5)] =
              ((this.tailBits[tails * 4 + (c >>> 5)] as number) | (1 << (c & 31))) >>> 0;
        }
        tails++;
      }
    });
    this.everyName = Int32Array.from(b.everyName);
    // Built over the patterns reversed: the label walk reads the name from its end, and a pattern
    // occurs in the name exactly when its reverse occurs in the name read backwards.
    const reversed = (p: string) => p.split('').reverse().join('');
    this.automaton = new KeywordAutomaton([...b.keywordIds.keys(), ...literalIds.keys()].map(reversed));
    this.seen = new Uint32Array(this.codes.length);
    this.regexSeen = new Uint32Array(this.regexes.length);
    this.candidates = new Int32Array(this.regexes.length);
  }

  /** @internal The builder's way in. */
  static fromBuilder(b: SiteMatcherBuilder): SiteMatcher {
    return new SiteMatcher(b);
  }

  /**
   * Compiles lists for matching. `selectors` (`cn`, `google@ads`; case-insensitive) chooses what
   * the result indexes stand for, in that order; without it every list, in the given order.
   */
  static compile(lists: readonly SiteList[], selectors?: readonly string[]): SiteMatcher {
    const parsed = selectors
      ? selectors.map(parseListSelector)
      : lists.map((l) => ({ code: l.code, attrs: [] as string[] }));
    // Entries sharing a code (possible in foreign files) count as one list.
    const byCode = new Map<string, SiteList>();
    for (const l of lists) {
      const code = l.code.toUpperCase();
      const seen = byCode.get(code);
      byCode.set(code, seen ? { code: seen.code, rules: [...seen.rules, ...l.rules] } : l);
    }
    const builder = new SiteMatcherBuilder();
    for (const selector of parsed) {
      const list = byCode.get(selector.code.toUpperCase());
      if (!list) throw new GeoError('code_not_found', `no site list "${selector.code}"`);
      if (!builder.beginTarget([list.code.toUpperCase(), ...selector.attrs].join('@'), list.code)) continue;
      for (const rule of selectRules(list, selector)) builder.addRule(rule.type, rule.value);
    }
    return builder.build();
  }

  /** Number of result indexes (the length a result buffer needs). */
  get size(): number {
    return this.codes.length;
  }

  /**
   * Writes the indexes (into `codes`) of every list with a rule matching `domain` into `out`, in
   * ascending order, and returns how many. Allocates nothing when `domain` is lower case with no
   * trailing dot. `out` needs at least `size` elements.
   */
  match(domain: string, out: Uint32Array): number {
    if (out.length < this.codes.length) {
      throw new RangeError(`result buffer of ${out.length} for ${this.codes.length} codes`);
    }
    // One trailing dot dropped; lower case is checked during the walk (normalizeDomain's rule
    // without a pass of its own): a name that needs it is walked again, lower-cased.
    let name =
      domain.length > 0 && domain.charCodeAt(domain.length - 1) === 46 ? domain.slice(0, -1) : domain;
    this.out = out;
    this.startLookup();
    if (!this.matchNames(name, true)) {
      name = name.toLowerCase();
      this.startLookup();
      this.matchNames(name, false);
    }
    for (let k = 0; k < this.everyName.length; k++) this.emit(this.everyName[k] as number);
    this.runRegexes(name);
    // Few hits: insertion sort in place.
    for (let a = 1; a < this.count; a++) {
      const v = out[a] as number;
      let b = a - 1;
      while (b >= 0 && (out[b] as number) > v) {
        out[b + 1] = out[b] as number;
        b--;
      }
      out[b + 1] = v;
    }
    return this.count;
  }

  /** The codes matching `domain`, in `codes` order (allocates; for tools, not router loops). */
  matchCodes(domain: string): string[] {
    const out = new Uint32Array(this.codes.length);
    const n = this.match(domain, out);
    const codes: string[] = [];
    for (let k = 0; k < n; k++) codes.push(this.codes[out[k] as number] as string);
    return codes;
  }

  /** A fresh lookup: new stamps, nothing found yet. */
  private startLookup(): void {
    this.epoch = (this.epoch + 1) >>> 0;
    if (this.epoch === 0) {
      this.seen.fill(0);
      this.regexSeen.fill(0);
      this.epoch = 1;
    }
    this.count = 0;
    this.candidateCount = 0;
  }

  /**
   * The walk: full and domain rules by every label suffix of the name, probed in place, and
   * keywords and regexp literals by the automaton, in one right-to-left pass, label by label.
   * With checkCase it gives up (returning false) at the first character lower-casing would change
   * (A-Z, or any non-ASCII), so the caller walks the lower-cased name instead.
   * The hot state lives in locals (a call the walk makes could change a field, so V8 would read
   * fields again after each one); `count` goes back to the field around the automaton's
   * (rare) reports, which emit through it.
   */
  private matchNames(name: string, checkCase: boolean): boolean {
    const end = name.length;
    const automaton = this.automaton;
    const fast = automaton.asciiTable;
    const scan = automaton.size > 0;
    const table = this.table;
    const groups = this.nameGroups;
    const seen = this.seen;
    const epoch = this.epoch;
    const out = this.out;
    let count = this.count;
    let hash = 0;
    let state = 0;
    let k = end;
    this.dotted = false;
    for (;;) {
      // The label ending at k, back to its dot or the name's start (a step per character).
      for (; k > 0; k--) {
        const c = name.charCodeAt(k - 1);
        if (c === 46) break;
        if (checkCase && c >= 65 && (c <= 90 || c >= 128)) return false;
        hash = hashStep(hash, c);
        if (scan) {
          const t = c < 128 ? (fast[(state << 7) | c] as number) : automaton.step(state, c);
          if (t < 0) {
            state = ~t;
            this.count = count;
            automaton.outputs(state, this.onKeyword);
            count = this.count;
          } else state = t;
        }
      }
      // name[k, end) starts at a label boundary (or is the empty suffix after a dot).
      const id = table.find(hash, name, k, end);
      if (id !== -1) {
        const v = table.value(id);
        if (v > 0) {
          // One target: a domain rule's, or a full rule's when the probe is the whole name.
          const t = (v - 1) >>> 1;
          if ((k === 0 || ((v - 1) & 1) === 0) && seen[t] !== epoch) {
            seen[t] = epoch;
            out[count++] = t;
          }
        } else if (v < 0) {
          // Several: the group's domain rules', and its full rules' for the whole name.
          const g = ~v;
          const stop = k === 0 ? (groups.start[g + 1] as number) : (this.fullAt[g] as number);
          for (let o = groups.start[g] as number; o < stop; o++) {
            const t = groups.ids[o] as number;
            if (seen[t] !== epoch) {
              seen[t] = epoch;
              out[count++] = t;
            }
          }
        }
      }
      if (k === 0) {
        this.count = count;
        return true;
      }
      // The dot before the label: its step written out again, as one loop over the characters
      // with the boundary test per character, or a flag that lets the inner loop take the dot,
      // each looked up 7-10% slower (bench/geo-match.ts's queries, same process, alternating).
      k--;
      this.dotted = true;
      hash = hashStep(hash, 46);
      if (scan) {
        const t = fast[(state << 7) | 46] as number;
        if (t < 0) {
          state = ~t;
          this.count = count;
          automaton.outputs(state, this.onKeyword);
          count = this.count;
        } else state = t;
      }
    }
  }

  private keywordHit(id: number): void {
    if (id < this.keywordCount) {
      this.emitGroup(this.keywordGroups, id);
      return;
    }
    const g = this.literalRegexes;
    const end = g.start[id - this.keywordCount + 1] as number;
    for (let o = g.start[id - this.keywordCount] as number; o < end; o++) {
      const r = g.ids[o] as number;
      if (this.regexSeen[r] !== this.epoch) {
        this.regexSeen[r] = this.epoch;
        this.candidates[this.candidateCount++] = r;
      }
    }
  }

  private runRegexes(name: string): void {
    for (let k = 0; k < this.unfilteredRegexes.length; k++)
      this.tryRegex(this.unfilteredRegexes[k] as number, name);
    for (let k = 0; k < this.candidateCount; k++) this.tryRegex(this.candidates[k] as number, name);
  }

  private tryRegex(r: number, name: string): void {
    // A regexp that cannot match a dotted name (`^[a-z0-9-]+$`) is not run on one.
    if (this.dotted && this.regexDotless[r] === 1) return;
    // A regexp ending in fixed characters and `$` (`[a-z][1-9][0-9][a-z]\.com$`) is not run on a
    // name whose end does not fit them.
    if (!this.tailFits(r, name)) return;
    // Skip a regexp whose every list already matched.
    const g = this.regexGroups;
    const end = g.start[r + 1] as number;
    let needed = false;
    for (let o = g.start[r] as number; o < end && !needed; o++)
      needed = this.seen[g.ids[o] as number] !== this.epoch;
    if (needed && (this.regexes[r] as SiteRegex).test(name)) this.emitGroup(g, r);
  }

  /** Whether the name's last characters fit regexp r's tail (a non-ASCII one: not known, so yes). */
  private tailFits(r: number, name: string): boolean {
    const n = this.tailLength[r] as number;
    if (name.length < n) return false;
    const bits = this.tailBits;
    let at = (this.tailStart[r] as number) * 4;
    for (let t = 0; t < n; t++, at += 4) {
      const c = name.charCodeAt(name.length - 1 - t);
      if (c >= 128) return true;
      if (((bits[at + (c >>> 5)] as number) & (1 << (c & 31))) === 0) return false;
    }
    return true;
  }

  private emitGroup(g: Groups, group: number): void {
    const end = g.start[group + 1] as number;
    for (let o = g.start[group] as number; o < end; o++) this.emit(g.ids[o] as number);
  }

  private emit(t: number): void {
    if (this.seen[t] !== this.epoch) {
      this.seen[t] = this.epoch;
      (this.out as Uint32Array)[this.count++] = t;
    }
  }
}
