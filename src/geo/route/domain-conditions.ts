// The domain conditions of a rule list, compiled into one SiteMatcher and answered byte for byte as
// v2ray 4.34 answers them: names are compared as given (no lower-casing, no trailing dot dropped).
// Each domain item (a list selector, or a rule's inline entries) owns two matcher targets:
//   D: its `domain:` values, O: its `full:` values and regexps.
// Only "plain" values (ASCII, no capital letter, not empty, no final dot: all of the dlc's) go
// into the matcher, which lower-cases and drops a final dot; keywords and any other values are
// kept aside and compared directly. A plain query is matched as is (D or O hits); any other query
// (capitals, non-ASCII, a final dot) can equal no plain full value and end in a plain domain value
// only through its plain label suffix, so D is matched on that suffix and the regexps run on the query.
import { RE2JS } from 're2js';
import type { GeoDat } from '../dat/geo-dat.js';
import { GeoError } from '../errors.js';
import { DomainType } from '../model.js';
import { type SiteMatcher, SiteMatcherBuilder } from '../site/site-matcher.js';
import { compileSiteRegex, type SiteRegex } from '../site/site-regex.js';
import { decodeUtf8, WireReader } from '../wire/wire-reader.js';

/**
 * A value compared directly, with v2ray's string semantics; a rule's own regexps run on re2js
 * (linear time, whatever the pattern: they may come from an API request).
 */
type PlainType = typeof DomainType.Full | typeof DomainType.RootDomain | typeof DomainType.Plain;
type DirectRule =
  | { readonly type: PlainType; readonly value: string }
  | { readonly type: typeof DomainType.Regex; readonly value: string; readonly re: RE2JS };

/** One domain item: its matcher targets and what the matcher does not hold. */
interface DomainItem {
  readonly d: number;
  readonly o: number;
  readonly direct: DirectRule[];
  readonly regexPatterns: string[];
  /** Compiled on the first query that needs them. */
  regexes: SiteRegex[] | undefined;
  /** Rules the item holds: a domain condition exists only when its items hold one. */
  count: number;
}

/** Whether a name or value is plain: ASCII, no capital, not empty, no final dot. */
export function isPlainName(text: string): boolean {
  const n = text.length;
  if (n === 0 || text.charCodeAt(n - 1) === 46) return false;
  for (let k = 0; k < n; k++) {
    const c = text.charCodeAt(k);
    if (c >= 128 || (c >= 65 && c <= 90)) return false;
  }
  return true;
}

function isPlainBytes(bytes: Uint8Array, from: number, to: number): boolean {
  if (to === from || bytes[to - 1] === 46) return false;
  for (let k = from; k < to; k++) {
    const c = bytes[k] as number;
    if (c >= 128 || (c >= 65 && c <= 90)) return false;
  }
  return true;
}

/** Whether a Domain message carries every attribute key (v2ray: keys equal ignoring case, any value). */
function hasAttributeKeys(bytes: Uint8Array, start: number, end: number, keys: readonly string[]): boolean {
  if (keys.length === 0) return true;
  const r = new WireReader(bytes, start, end);
  const found = new Set<string>();
  while (!r.done()) {
    const tag = r.uint32();
    if (tag !== 0x1a) {
      r.skip(tag & 7);
      continue;
    }
    const attrEnd = r.lengthEnd();
    const sub = new WireReader(bytes, r.pos, attrEnd);
    while (!sub.done()) {
      const t = sub.uint32();
      if (t === 0x0a) found.add(sub.string().toLowerCase());
      else sub.skip(t & 7);
    }
    r.pos = attrEnd;
  }
  return keys.every((k) => found.has(k));
}

function isAscii(text: string): boolean {
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) >= 128) return false;
  return true;
}

/** v2ray's test of one directly compared value against a name. */
function directMatch(rule: DirectRule, name: string): boolean {
  const v = rule.value;
  switch (rule.type) {
    case DomainType.Full:
      return name === v;
    case DomainType.RootDomain:
      return name === v || (name.endsWith(v) && name.charCodeAt(name.length - v.length - 1) === 46);
    case DomainType.Regex:
      // Go matches the name's UTF-8 bytes.
      return rule.re.test(isAscii(name) ? name : Buffer.from(name, 'utf8'));
    default:
      return name.includes(v);
  }
}

/** Builds the items, then answers which hold for a query. */
export class DomainConditions {
  private readonly builder = new SiteMatcherBuilder();
  private readonly items: DomainItem[] = [];
  private matcher: SiteMatcher | undefined;
  private out = new Uint32Array(0);
  /** Per target: the query stamp it was last hit at. */
  private hit = new Uint32Array(0);
  private stamp = 0;
  private plain = true;
  private name = '';

  /** Rules held by an item. */
  count(item: number): number {
    return (this.items[item] as DomainItem).count;
  }

  private newItem(): DomainItem {
    const n = this.items.length;
    const item: DomainItem = {
      d: 2 * n,
      o: 2 * n + 1,
      direct: [],
      regexPatterns: [],
      regexes: undefined,
      count: 0,
    };
    this.items.push(item);
    return item;
  }

  /**
   * Adds the first entry of a list code in a site file (v2ray takes the first, case-insensitively),
   * keeping the rules that carry every attribute key. `where` starts error messages.
   */
  addList(dat: GeoDat, code: string, attrs: readonly string[], where: string): number {
    // A file with no rule at all (kind 'empty') serves either kind.
    if (dat.kind === 'ip') {
      throw new GeoError('dat_kind', `${where}: ${dat.name} holds ${dat.kind} lists, not site lists`);
    }
    const entry = dat.lists().get(code.toUpperCase())?.[0];
    if (!entry) throw new GeoError('code_not_found', `${where}: no list "${code}" in ${dat.name}`);
    const item = this.newItem();
    const label = `${where} (${dat.name} ${entry.code})`;
    // Two walks of the entry: the matcher fills one target at a time.
    for (const target of [item.d, item.o]) {
      this.builder.beginTarget(String(target), label);
      dat.scanSite(entry, {
        rule: (type, bytes, from, to, ruleStart, ruleEnd) => {
          if (!hasAttributeKeys(bytes, ruleStart, ruleEnd, attrs)) return;
          const plain = isPlainBytes(bytes, from, to);
          const forD = type === DomainType.RootDomain && plain;
          const forO = type === DomainType.Regex || (type === DomainType.Full && plain);
          if (target === item.d) {
            if (forD) this.builder.addRuleBytes(type, bytes, from, to);
            return;
          }
          item.count++;
          if (forO) this.builder.addRuleBytes(type, bytes, from, to);
          if (type === DomainType.Regex) item.regexPatterns.push(decodeUtf8(bytes, from, to));
          else if (!forD && !forO)
            item.direct.push({ type: type as PlainType, value: decodeUtf8(bytes, from, to) });
        },
      });
    }
    return this.items.length - 1;
  }

  /** Adds a rule's inline entries (`domain:`, `full:`, keywords, regexps) as one item. */
  addInline(rules: readonly { type: DomainType; value: string; where: string }[]): number {
    const item = this.newItem();
    for (const target of [item.d, item.o]) {
      this.builder.beginTarget(String(target));
      for (const r of rules) {
        const plain = isPlainName(r.value);
        if (target === item.d) {
          if (r.type === DomainType.RootDomain && plain) this.builder.addRule(r.type, r.value);
          continue;
        }
        item.count++;
        if (r.type === DomainType.Regex) {
          let re: RE2JS;
          try {
            re = RE2JS.compile(r.value);
          } catch (err) {
            throw new GeoError('regexp_invalid', `${r.where}: invalid regexp: ${(err as Error).message}`);
          }
          item.direct.push({ type: DomainType.Regex, value: r.value, re });
        } else if (r.type === DomainType.Full && plain) this.builder.addRule(r.type, r.value);
        else if (!(r.type === DomainType.RootDomain && plain))
          item.direct.push({ type: r.type, value: r.value });
      }
    }
    return this.items.length - 1;
  }

  /** Compiles the matcher; call once, after the last add. */
  build(): void {
    this.matcher = this.builder.build();
    this.out = new Uint32Array(this.matcher.size);
    this.hit = new Uint32Array(this.matcher.size);
  }

  /** Takes a domain query: matches it once for every item. */
  prepare(name: string): void {
    const m = this.matcher;
    if (!m) throw new Error('DomainConditions: prepare before build');
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.hit.fill(0);
      this.stamp = 1;
    }
    this.name = name;
    this.plain = isPlainName(name);
    let probe = name;
    if (!this.plain) {
      // Only the label suffix after the last capital or non-ASCII character can end in a plain
      // value; a name with a final dot has none.
      probe = '';
      const n = name.length;
      if (n > 0 && name.charCodeAt(n - 1) !== 46) {
        let last = n - 1;
        for (; last >= 0; last--) {
          const c = name.charCodeAt(last);
          if (c >= 128 || (c >= 65 && c <= 90)) break;
        }
        const dot = name.indexOf('.', last + 1);
        if (dot !== -1) probe = name.slice(dot + 1);
      }
    }
    if (probe === '' || m.size === 0) return;
    const n = m.match(probe, this.out);
    for (let k = 0; k < n; k++) this.hit[this.out[k] as number] = this.stamp;
  }

  /** Whether an item holds for the prepared query. */
  holds(index: number): boolean {
    const item = this.items[index] as DomainItem;
    if (this.hit[item.d] === this.stamp) return true;
    if (this.plain && this.hit[item.o] === this.stamp) return true;
    for (const rule of item.direct) if (directMatch(rule, this.name)) return true;
    if (this.plain || item.regexPatterns.length === 0) return false;
    item.regexes ??= item.regexPatterns.map((p) => compileSiteRegex(p));
    return item.regexes.some((re) => re.test(this.name));
  }
}
