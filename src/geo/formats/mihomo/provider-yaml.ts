// The YAML form of a mihomo rule provider, read as the line-by-line subset mihomo itself reads:
// comment and blank lines, one `payload:` (or `rules:`) header, then one `- entry` a line, the
// entry plain, 'single-' or "double-quoted". Anything else is refused naming the line.
import { GeoError } from '../../errors.js';
import type { ProviderLine } from './provider-text.js';

const HEADER = /^(?:payload|rules):[ \t]*(?:#.*)?$/;
const EMPTY_HEADER = /^(?:payload|rules):[ \t]*\[[ \t]*\][ \t]*(?:#.*)?$/;
const ITEM = /^[ \t]*-(?:[ \t]+(.*))?$/;
const AFTER_SCALAR = /^[ \t]*(?:#.*)?$/;
const PLAIN_START = /^[[\]{},&*!|>%@`]/;

/** True when the first line that is not blank or a comment is a `payload:` header. */
export function looksLikeYaml(text: string): boolean {
  for (const raw of text.split('\n', 64)) {
    const line = raw.replace(/^\uFEFF/, '').trimEnd();
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    return HEADER.test(line) || EMPTY_HEADER.test(line);
  }
  return false;
}

/** The entries of a YAML provider with their line numbers (1-based); empty items are skipped. */
export function yamlEntries(text: string, name: string): ProviderLine[] {
  const lines = text.split('\n');
  const out: ProviderLine[] = [];
  let state: 'head' | 'items' | 'closed' = 'head';
  for (let i = 0; i < lines.length; i++) {
    let line = (lines[i] as string).replace(/\r$/, '');
    if (i === 0 && line.startsWith('\uFEFF')) line = line.slice(1);
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const fail = (what: string): never => {
      throw new GeoError('source_syntax', `${name}:${i + 1}: ${what}`);
    };
    if (state === 'head') {
      if (HEADER.test(line)) state = 'items';
      else if (EMPTY_HEADER.test(line)) state = 'closed';
      else fail('expected the "payload:" header');
      continue;
    }
    if (state === 'closed') fail('nothing may follow "payload: []"');
    const m = ITEM.exec(line);
    if (!m) fail('expected a "- entry" list item');
    const value = yamlScalar(m?.[1] ?? '', fail);
    if (value !== '') out.push({ text: value, line: i + 1 });
  }
  if (state === 'head') {
    throw new GeoError('source_syntax', `${name}:${lines.length}: end of file before a "payload:" header`);
  }
  return out;
}

/** One flow scalar on a line (with an optional trailing comment); '' for an empty item. */
function yamlScalar(raw: string, fail: (what: string) => never): string {
  const s = raw.trim();
  if (s === '' || s.startsWith('#')) return '';
  if (s.startsWith("'")) {
    let value = '';
    let p = 1;
    for (;;) {
      const q = s.indexOf("'", p);
      if (q === -1) return fail('unterminated single-quoted string');
      value += s.slice(p, q);
      if (s[q + 1] === "'") {
        value += "'";
        p = q + 2;
        continue;
      }
      if (!AFTER_SCALAR.test(s.slice(q + 1))) fail('unexpected text after the quoted string');
      return value;
    }
  }
  if (s.startsWith('"')) {
    let value = '';
    for (let p = 1; p < s.length; p++) {
      const c = s[p] as string;
      if (c === '"') {
        if (!AFTER_SCALAR.test(s.slice(p + 1))) fail('unexpected text after the quoted string');
        return value;
      }
      if (c === '\\') {
        const e = s[++p];
        if (e === '\\' || e === '"' || e === '/') value += e;
        else fail(`unsupported escape "\\${e ?? ''}" in a double-quoted string`);
      } else value += c;
    }
    return fail('unterminated double-quoted string');
  }
  if (PLAIN_START.test(s)) fail(`entry may not start with "${s[0]}" unquoted`);
  const comment = s.search(/[ \t]#/);
  const value = (comment === -1 ? s : s.slice(0, comment)).trim();
  if (/:[ \t]|:$/.test(value)) fail('entry is a mapping, not a string');
  return value;
}

/** Entries as a YAML provider: a `payload:` list of single-quoted strings. */
export function yamlText(entries: readonly string[]): string {
  if (entries.length === 0) return 'payload: []\n';
  return `payload:\n${entries.map((e) => `  - '${e.replaceAll("'", "''")}'\n`).join('')}`;
}
