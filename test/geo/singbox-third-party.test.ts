// Real third-party sing-box rule-sets (sing-geosite's geosite-*.srs, meta-rules-dat's geosite/geoip
// .srs and .json...) from the directory named by BRANCHGATE_SRS_CORPUS, else
// ../shared/corpora/geo/sing-box; none is committed here. Every file must read; each read-back
// list matches what a plain evaluation of the file matches, and rewriting is stable; a .json
// beside an .srs of the same name matches the same names; the geosite lists are compared with the
// dlc list of the same code (their data may be older or edited, so the agreement is printed and
// only loosely bounded). Skipped, saying so, when neither directory is there.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readRuleSet, readRuleSetSource, readSrs, writeSrs } from '../../src/geo/formats/singbox/index.js';
import { GeoDat, GeoError, type SiteList, SiteMatcher } from '../../src/geo/index.js';
import { geoCorpora, hasGeoCorpora, thirdPartyCorpus } from './support/corpora.js';
import { ruleSetEvaluator } from './support/rule-set-eval.js';
import { namesForRules } from './support/site-names.js';

const corpus = thirdPartyCorpus('BRANCHGATE_SRS_CORPUS', 'sing-box');
if (!corpus)
  console.log(
    '*** SKIPPED third-party sing-box rule-sets: no ../shared/corpora/geo/sing-box; set BRANCHGATE_SRS_CORPUS to a directory of .srs/.json rule-sets',
  );

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return filesUnder(p);
    return /\.(srs|json)$/.test(f) ? [p] : [];
  });
}

describe.skipIf(!corpus)('third-party sing-box rule-sets', () => {
  const files = corpus ? filesUnder(resolve(corpus)) : [];

  test('every file reads; its list matches what the file matches; a rewrite reads back the same', () => {
    expect(files.length).toBeGreaterThan(0);
    const tally = new Map<string, number>();
    const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
    for (const file of files) {
      const bytes = readFileSync(file);
      let read: ReturnType<typeof readRuleSet>;
      try {
        read = readRuleSet(bytes, file);
      } catch (err) {
        // Only content a list cannot hold may be refused (logical rules, ports, ...).
        if (!(err instanceof GeoError) || err.code !== 'ruleset_unsupported') throw err;
        count('refused (ruleset_unsupported)');
        continue;
      }
      count(`${read.format} v${read.version} ${read.kind}`);
      const version = read.version === 1 ? 1 : 2;
      const again = writeSrs(read.list, { version });
      expect(Buffer.compare(writeSrs(readRuleSet(again, file).list, { version }), again), file).toBe(0);
      if (read.kind !== 'site') continue;
      const doc =
        read.format === 'binary' ? readSrs(bytes, file) : readRuleSetSource(bytes.toString('utf8'), file);
      const fileMatches = ruleSetEvaluator(doc);
      const matcher = SiteMatcher.compile([read.list]);
      for (const name of namesForRules(read.list.rules, 40)) {
        expect(matcher.matchCodes(name).length > 0, `${file}: ${name}`).toBe(fileMatches(name));
      }
    }
    console.log('third-party rule-sets read:', Object.fromEntries(tally));
  }, 600_000);

  test('a .json and an .srs of the same name match the same names', () => {
    let pairs = 0;
    for (const file of files.filter((f) => f.endsWith('.srs'))) {
      const json = file.replace(/\.srs$/, '.json');
      if (!files.includes(json)) continue;
      const fromSrs = readRuleSet(readFileSync(file), file);
      const fromJson = readRuleSet(readFileSync(json), json);
      expect(fromJson.kind, json).toBe(fromSrs.kind);
      if (fromSrs.kind !== 'site') {
        expect(writeSrs(fromJson.list, { version: 2 }), json).toEqual(writeSrs(fromSrs.list, { version: 2 }));
      } else {
        const a = SiteMatcher.compile([fromSrs.list]);
        const b = SiteMatcher.compile([fromJson.list as SiteList]);
        for (const name of namesForRules(fromSrs.list.rules, 40)) {
          expect(b.matchCodes(name), `${json}: ${name}`).toEqual(a.matchCodes(name));
        }
      }
      pairs++;
    }
    console.log(`third-party .json/.srs pairs compared: ${pairs}`);
  }, 600_000);

  test.skipIf(!hasGeoCorpora)(
    'geosite rule-sets against the dlc list of the same code',
    () => {
      const dat = GeoDat.open(resolve(geoCorpora, 'upstream/dlc.dat'));
      let lists = 0;
      let same = 0;
      let names = 0;
      let differ = 0;
      for (const file of files.filter((f) => f.endsWith('.srs'))) {
        const read = readRuleSet(readFileSync(file), file);
        const entry = read.kind === 'site' ? dat.find(read.list.code) : undefined;
        if (!entry || read.kind !== 'site') continue;
        const dlc = dat.readSite(entry);
        const ours = SiteMatcher.compile([dlc]);
        const theirs = SiteMatcher.compile([read.list]);
        let d = 0;
        const probe = new Set([...namesForRules(dlc.rules, 60), ...namesForRules(read.list.rules, 60)]);
        for (const name of probe)
          if (ours.matchCodes(name).length > 0 !== theirs.matchCodes(name).length > 0) d++;
        lists++;
        names += probe.size;
        differ += d;
        if (d === 0) same++;
      }
      dat.close();
      console.log(
        `third-party geosite vs dlc: ${lists} lists, ${same} agree on every probe name; ${differ} of ${names} probe names differ`,
      );
      // Different data snapshots differ a little; a misread file would differ wholesale.
      if (lists > 0) expect(differ / names).toBeLessThan(0.2);
    },
    600_000,
  );
});
