// Side by side with v2ray 4.34 in the same run: each measurement is a fresh process on our side
// (bench/support/geo-load-child.mjs on the built package) and on v2ray's (bench/v2ray-peer, a Go
// program calling v2ray's own router.NewDomainMatcher / GeoIPMatcher from Debian's
// golang-v2ray-core-dev), alternated round by round; medians are reported.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** One process's report (the same JSON fields on both sides). */
export interface SideReport {
  readonly kind: 'site' | 'ip';
  readonly lists: number;
  readonly buildMs: number;
  readonly rssKb: number;
  readonly peakRssKb: number;
  readonly queries?: number;
  readonly hits?: number;
  readonly nsPerLookup?: number;
}

/** What a side-by-side run asks: a file, its kind, optional codes and a query file. */
export interface SideCase {
  readonly kind: 'site' | 'ip';
  readonly file: string;
  readonly codes?: readonly string[];
  readonly queries?: string;
}

/**
 * Builds the peer (GOPATH mode over Debian's Go packages) into a temporary directory; returns its
 * path, or a reason it cannot be built (go or the packages missing).
 */
export function buildPeer(): { path: string } | { missing: string } {
  const gocode = '/usr/share/gocode/src/v2ray.com/core/app/router';
  if (!existsSync(gocode)) {
    return {
      missing:
        'golang-v2ray-core-dev is not installed (apt-get install golang-go golang-v2ray-core-dev golang-starlark-dev)',
    };
  }
  const out = join(mkdtempSync(join(tmpdir(), 'v2ray-peer-')), 'v2ray-peer');
  try {
    execFileSync('go', ['build', '-o', out, join(root, 'bench/v2ray-peer/main.go')], {
      env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (err) {
    return { missing: `go build of bench/v2ray-peer failed: ${(err as Error).message.split('\n')[0]}` };
  }
  return { path: out };
}

/** Builds the package (dist/) that our side runs on. */
export function buildOurs(): void {
  execFileSync(process.execPath, [join(root, 'scripts/build.js')], { cwd: root, stdio: 'ignore' });
}

function runOurs(c: SideCase, rounds: number): SideReport {
  const args = [join(root, 'bench/support/geo-load-child.mjs'), c.kind, c.file];
  if (c.codes) args.push('--codes', c.codes.join(','));
  if (c.queries) args.push('--queries', c.queries, '--rounds', String(rounds));
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as SideReport;
}

function runPeer(peer: string, c: SideCase, rounds: number): SideReport {
  const args = [c.kind, c.file];
  if (c.codes) args.push('-codes', c.codes.join(','));
  if (c.queries) args.push('-queries', c.queries, '-rounds', String(rounds));
  return JSON.parse(execFileSync(peer, args, { encoding: 'utf8' })) as SideReport;
}

/** The median of a list of numbers. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Medians of each field over `rounds` processes per side, alternating ours and v2ray's. */
export function sideBySide(
  peer: string,
  c: SideCase,
  rounds: number,
  lookupRounds = 5,
): { ours: SideReport; v2ray: SideReport } {
  const ours: SideReport[] = [];
  const v2ray: SideReport[] = [];
  for (let r = 0; r < rounds; r++) {
    // Alternate which side goes first, so neither always runs on a warmer machine.
    if (r % 2 === 0) {
      ours.push(runOurs(c, lookupRounds));
      v2ray.push(runPeer(peer, c, lookupRounds));
    } else {
      v2ray.push(runPeer(peer, c, lookupRounds));
      ours.push(runOurs(c, lookupRounds));
    }
  }
  const summarise = (rs: SideReport[]): SideReport => ({
    kind: c.kind,
    lists: (rs[0] as SideReport).lists,
    buildMs: median(rs.map((r) => r.buildMs)),
    rssKb: median(rs.map((r) => r.rssKb)),
    peakRssKb: median(rs.map((r) => r.peakRssKb)),
    hits: (rs[0] as SideReport).hits ?? 0,
    nsPerLookup: median(rs.map((r) => r.nsPerLookup ?? 0)),
  });
  return { ours: summarise(ours), v2ray: summarise(v2ray) };
}
