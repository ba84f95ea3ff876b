// Third-party .mrs files (e.g. a checkout of MetaCubeX/meta-rules-dat, branch meta) from the
// directory in BRANCHGATE_MRS_CORPUS, else ../shared/corpora/geo/mihomo; none is committed here.
// Every file reads, equals its .list and .yaml twins, is what our writer writes byte for byte (but
// the count field), and matches names as mihomo's Has does; geosite lists are compared with the
// dlc.dat list of the same code (a report: the two are built from different days of
// domain-list-community). Skipped, saying so, when neither directory is there.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { GeoDat } from '../../src/geo/dat/geo-dat.js';
import { GeoError } from '../../src/geo/errors.js';
import { mrsPayload, readProvider, unzstd } from '../../src/geo/formats/mihomo/index.js';
import { DomainType, type SiteList } from '../../src/geo/model.js';
import { SiteMatcher } from '../../src/geo/site/site-matcher.js';
import { geoCorpora, thirdPartyCorpus } from './support/corpora.js';
import { MihomoDomainSet, PlainSiteEval } from './support/mihomo-reference.js';

const corpus = thirdPartyCorpus('BRANCHGATE_MRS_CORPUS', 'mihomo');
if (!corpus)
  console.log(
    '*** SKIPPED mihomo .mrs corpus test: no ../shared/corpora/geo/mihomo; set BRANCHGATE_MRS_CORPUS to a directory of .mrs files',
  );
/** The dlc.dat to compare geosite lists with (default: the shared upstream one). */
const dlcPath = process.env.BRANCHGATE_MRS_DLC ?? resolve(geoCorpora, 'upstream/dlc.dat');

function mrsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...mrsFiles(path));
    else if (name.endsWith('.mrs')) out.push(path);
  }
  return out.sort();
}

const body = (payload: Uint8Array) => Buffer.from(payload.subarray(21));

describe.skipIf(!corpus)('third-party .mrs files', () => {
  const files = corpus ? mrsFiles(corpus) : [];

  test('every file reads, equals its .list/.yaml twins, and our writer rewrites its bytes', () => {
    let read = 0;
    let empty = 0;
    let twins = 0;
    let countDiffers = 0;
    for (const path of files) {
      const bytes = readFileSync(path);
      if (bytes.length === 0) {
        // Lists that came out empty are written as empty files; mihomo cannot load them either.
        expect(() => readProvider(bytes, path)).toThrow(GeoError);
        empty++;
        continue;
      }
      const p = readProvider(bytes, path);
      read++;
      const payload = unzstd(bytes, path);
      const ours = mrsPayload(p.list);
      expect(Buffer.from(ours.subarray(0, 5)).equals(Buffer.from(payload.subarray(0, 5))), path).toBe(true);
      expect(body(ours).equals(body(payload)), `${path}: our rewrite differs`).toBe(true);
      if (!Buffer.from(ours.subarray(5, 13)).equals(Buffer.from(payload.subarray(5, 13)))) countDiffers++;
      for (const ext of ['.list', '.yaml']) {
        const twin = join(dirname(path), basename(path, '.mrs') + ext);
        let text: Buffer;
        try {
          text = readFileSync(twin);
        } catch {
          continue;
        }
        const t = readProvider(text, twin, p.kind === 'ip' ? 'ipcidr' : 'domain');
        expect(body(mrsPayload(t.list)).equals(body(ours)), `${twin} differs from its .mrs`).toBe(true);
        twins++;
      }
    }
    console.log(
      `mrs corpus: ${read} files read (${empty} empty files refused), ${twins} .list/.yaml twins equal; ` +
        `our rewrite is byte-identical but for the count field in ${countDiffers} (mihomo counts its source lines)`,
    );
    expect(read).toBeGreaterThan(0);
  }, 600_000);

  test("geosite files: mihomo's Has and the read-back list agree; names compared with dlc.dat", () => {
    const dat = GeoDat.open(dlcPath);
    let lists = 0;
    const differ: string[] = [];
    for (const path of files.filter((f) => /[\\/]geo[\\/]geosite[\\/][^@]+\.mrs$/.test(f))) {
      const bytes = readFileSync(path);
      if (bytes.length === 0) continue;
      const code = basename(path, '.mrs').toUpperCase();
      const entry = dat.find(code);
      if (!entry) continue;
      const list = readProvider(bytes, path).list as SiteList;
      const dlc = dat.readSite(entry);
      const got = new PlainSiteEval(list);
      const mihomo = new MihomoDomainSet(unzstd(bytes, path));
      const want = SiteMatcher.compile([dlc]);
      // Names only a regexp or keyword rule of the dlc list matches cannot be in an .mrs.
      const others = dlc.rules.filter((r) => r.type === DomainType.Plain || r.type === DomainType.Regex);
      const byOthers = SiteMatcher.compile([{ code, rules: others }]);
      const names = new Set<string>();
      for (const r of [...dlc.rules, ...list.rules]) {
        if (r.type !== DomainType.Full && r.type !== DomainType.RootDomain) continue;
        names
          .add(r.value)
          .add(`www.${r.value}`)
          .add(`x${r.value}`)
          .add(r.value.slice(r.value.indexOf('.') + 1));
      }
      let same = true;
      for (const name of names) {
        const g = got.has(name);
        expect(mihomo.has(name), `${code} ${name}`).toBe(g);
        const w = want.matchCodes(name).length > 0;
        if (g !== w && !(w && byOthers.matchCodes(name).length > 0)) same = false;
      }
      lists++;
      if (!same) differ.push(code);
    }
    console.log(
      `mrs corpus vs ${dlcPath}: ${lists - differ.length} of ${lists} geosite lists match the same names; ` +
        `differing: ${differ.join(' ') || 'none'}`,
    );
    expect(lists).toBeGreaterThan(0);
  }, 600_000);
});
