// `branchgate geo` command group: build geosite.dat / geoip.dat from sources, inspect, dump, diff,
// match and export real files. Implementations load lazily (src/geo/index.ts) inside each action.
import { type Command, Option } from 'commander';
import type { InputFormat } from '../geo/index.js';

function codesOption(value: string): string[] {
  return value
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

/** Writes to stdout; a closed pipe (`| head`) ends the output quietly instead of crashing. */
function print(text: string | Uint8Array): void {
  if (process.stdout.listenerCount('error') === 0) {
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
  }
  process.stdout.write(text);
}

async function loadGeo() {
  return await import('../geo/index.js');
}

async function withProgress<T>(
  unit: string,
  run: (onProgress: (phase: string, done: number, total: number) => void) => T,
) {
  const { createProgress } = await import('../shared/progress.js');
  const bar = createProgress({ unit });
  let phase = '';
  try {
    return run((name, done, total) => {
      if (name !== phase) {
        if (phase !== '') bar.stop();
        phase = name;
        bar.start(total, name);
      }
      bar.update(done);
    });
  } finally {
    if (phase !== '') bar.stop();
  }
}

/** Adds the `geo` command group to the program. */
export function registerGeo(program: Command): void {
  const geo = program.command('geo').description('build and read geosite.dat / geoip.dat files');

  geo
    .command('build-site')
    .description('compile a domain-list-community data directory into a geosite.dat')
    .argument('<data-dir>', 'directory of list files (the file name is the list code)')
    .requiredOption('-o, --output <file>', 'the .dat file to write')
    .option('--codes <a,b>', 'write only these lists (their includes are still resolved)', codesOption)
    .action(async (dir: string, opts: { output: string; codes?: string[] }) => {
      const g = await loadGeo();
      const result = await withProgress('lists', (onProgress) =>
        g.buildSiteDat(dir, { codes: opts.codes, onProgress }),
      );
      g.writeFileAtomic(opts.output, result.bytes);
      process.stderr.write(
        `wrote ${opts.output}: ${result.lists} lists, ${result.rules} rules, ${result.bytes.length} bytes\n`,
      );
    });

  geo
    .command('build-ip')
    .description('compile text CIDR lists and/or a country mmdb into a geoip.dat')
    .argument('[inputs...]', 'text list files or directories of them (the base name is the code)')
    .requiredOption('-o, --output <file>', 'the .dat file to write')
    .option('--codes <a,b>', 'write only these codes', codesOption)
    .option('--mmdb <file>', 'a MaxMind-format country database (GeoLite2-Country, DB-IP Lite)')
    .action(async (inputs: string[], opts: { output: string; codes?: string[]; mmdb?: string }) => {
      const g = await loadGeo();
      if (inputs.length === 0 && !opts.mmdb) {
        throw new g.GeoError('usage', 'geo build-ip needs at least one text list, directory or --mmdb file');
      }
      const result = await withProgress('files', (onProgress) =>
        g.buildIpDat(inputs, { codes: opts.codes, mmdb: opts.mmdb, onProgress }),
      );
      g.writeFileAtomic(opts.output, result.bytes);
      process.stderr.write(
        `wrote ${opts.output}: ${result.lists} lists, ${result.rules} CIDRs, ${result.bytes.length} bytes\n`,
      );
    });

  geo
    .command('info')
    .description('show the kind of a .dat file and every list with its counts by type')
    .argument('<file>', 'a geosite.dat or geoip.dat')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const g = await loadGeo();
      const dat = g.GeoDat.open(file);
      try {
        const info = g.datInfo(dat);
        if (opts.json) {
          print(`${JSON.stringify(info, null, 2)}\n`);
          return;
        }
        const counts = (by: Readonly<Record<string, number>>) =>
          Object.entries(by)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ');
        const unit = info.kind === 'ip' ? 'CIDRs' : 'rules';
        const out = [
          `${file}: ${info.kind} lists, ${info.entries.length} entries, ${info.total} ${unit} (${counts(info.byType)}), ${info.size} bytes`,
        ];
        for (const e of info.entries) {
          let line = `${e.code}\t${e.count}\t${counts(e.byType)}`;
          if (e.withAttributes) line += `\t(${e.withAttributes} with attributes)`;
          if (e.inverseMatch) line += '\t(inverse match)';
          out.push(line);
        }
        print(`${out.join('\n')}\n`);
      } finally {
        dat.close();
      }
    });

  geo
    .command('dump')
    .description('print one list: site rules in source syntax, or CIDRs')
    .argument('<file>', 'a geosite.dat or geoip.dat')
    .argument('<code>', 'the list code, optionally with attributes: google@ads')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (file: string, code: string, opts: { format: 'text' | 'json' }) => {
      const g = await loadGeo();
      const dat = g.GeoDat.open(file);
      try {
        const selector = g.parseListSelector(code);
        const entry = dat.get(selector.code);
        if (dat.kind === 'ip') {
          if (selector.attrs.length > 0) throw new g.GeoError('usage', 'IP lists have no attributes');
          const list = dat.readIp(entry);
          const cidrs = list.cidrs.map((c) => g.cidrToText(c.ip, c.prefix));
          if (opts.format === 'json') {
            const json = { code: list.code, kind: 'ip', inverseMatch: list.inverseMatch, cidrs };
            print(`${JSON.stringify(json, null, 2)}\n`);
          } else print(cidrs.length ? `${cidrs.join('\n')}\n` : '');
          return;
        }
        const list = dat.readSite(entry);
        const rules = g.selectRules(list, selector);
        if (opts.format === 'json') {
          const json = {
            code: list.code,
            kind: 'site',
            rules: rules.map((r) => ({
              type: ['keyword', 'regexp', 'domain', 'full'][r.type] ?? r.type,
              value: r.value,
              attributes: Object.fromEntries(
                r.attributes.map((a) => [a.key, typeof a.value === 'bigint' ? Number(a.value) : a.value]),
              ),
            })),
          };
          print(`${JSON.stringify(json, null, 2)}\n`);
        } else print(rules.length ? `${rules.map(g.siteRuleToText).join('\n')}\n` : '');
      } finally {
        dat.close();
      }
    });

  geo
    .command('diff')
    .description('show the lists and rules added and removed from <a> to <b>')
    .argument('<a>', 'the older .dat file')
    .argument('<b>', 'the newer .dat file')
    .option('--json', 'print JSON')
    .action(async (fileA: string, fileB: string, opts: { json?: boolean }) => {
      const g = await loadGeo();
      const a = g.GeoDat.open(fileA);
      const b = g.GeoDat.open(fileB);
      try {
        if (a.kind !== b.kind && a.kind !== 'empty' && b.kind !== 'empty') {
          throw new g.GeoError(
            'dat_kind',
            `${fileA} holds ${a.kind} lists but ${fileB} holds ${b.kind} lists`,
          );
        }
        const diff = g.datDiff(a, b);
        if (opts.json) {
          print(`${JSON.stringify(diff, null, 2)}\n`);
          return;
        }
        if (diff.length === 0) {
          print('no differences\n');
          return;
        }
        const out: string[] = [];
        for (const d of diff) {
          out.push(
            `${d.status === 'added' ? '+' : d.status === 'removed' ? '-' : '~'} ${d.code} (+${d.added.length} -${d.removed.length})`,
          );
          for (const l of d.removed) out.push(`  - ${l}`);
          for (const l of d.added) out.push(`  + ${l}`);
        }
        print(`${out.join('\n')}\n`);
      } finally {
        a.close();
        b.close();
      }
    });

  geo
    .command('match')
    .description('print the lists matching each domain (site file) or IP address (ip file)')
    .argument('<file>', 'a geosite.dat or geoip.dat')
    .argument('<query...>', 'domains for a site file, IPv4/IPv6 addresses for an ip file')
    .option('--codes <a,b>', 'only these lists, in this order; site lists take code@attr', codesOption)
    .option('--json', 'print JSON: [{query, codes}]')
    .action(async (file: string, queries: string[], opts: { codes?: string[]; json?: boolean }) => {
      const g = await loadGeo();
      const dat = g.GeoDat.open(file);
      try {
        const results = g.matchQueries(g.loadMatcher(dat, opts.codes), queries);
        if (opts.json) {
          print(`${JSON.stringify(results, null, 2)}\n`);
          return;
        }
        print(results.map((r) => `${r.query}\t${r.codes.length > 0 ? r.codes.join(' ') : '-'}\n`).join(''));
      } finally {
        dat.close();
      }
    });

  geo
    .command('lookup')
    .description(
      'answer domains and IP addresses from a site file and an IP file in one run (queries from stdin, one a line, when none are given)',
    )
    .argument('[query...]', 'domains and IPv4/IPv6 addresses')
    .option('--site <file>', 'a geosite.dat (answers domains)')
    .option('--ip <file>', 'a geoip.dat (answers addresses)')
    .option(
      '--codes <a,b>',
      'only these lists; each from the file that has it; site lists take code@attr',
      codesOption,
    )
    .option('--json', 'one JSON object a line: {"query":...,"codes":[...]} (codes sorted)')
    .action(
      async (queries: string[], opts: { site?: string; ip?: string; codes?: string[]; json?: boolean }) => {
        const { GeoLookup, lookupLines, formatAnswer } = await import('../geo/service/index.js');
        const lookup = GeoLookup.load(opts);
        const format = opts.json ? 'json' : 'text';
        if (queries.length > 0) {
          print(queries.map((q) => formatAnswer(q, lookup.lookup(q), format)).join(''));
          return;
        }
        print('');
        await lookupLines(lookup, process.stdin, process.stdout, format);
      },
    );

  geo
    .command('route')
    .description(
      'say which outbound v2ray 4.34 routes each domain or address to under a v2ray/Xray rule list (queries from stdin, one a line, when none are given)',
    )
    .argument('[query...]', 'domains and IPv4/IPv6 addresses, taken as given (case and a final dot count)')
    .requiredOption('--rules <file>', 'rules: {"rules":[...]}, [...] or a whole v2ray config with "routing"')
    .option('--site <file>', 'the geosite.dat that geosite: entries read (ext: files are read beside it)')
    .option('--ip <file>', 'the geoip.dat that geoip: entries read (ext: files are read beside it)')
    .option('--json', 'one JSON object a line: {"query","kind","outboundTag","rule"} (null: no rule matched)')
    .action(
      async (queries: string[], opts: { rules: string; site?: string; ip?: string; json?: boolean }) => {
        const { readFileSync } = await import('node:fs');
        const g = await loadGeo();
        const r = await import('../geo/route/index.js');
        const { answerLines } = await import('../geo/service/index.js');
        let text: string;
        try {
          text = readFileSync(opts.rules, 'utf8');
        } catch (err) {
          throw new g.GeoError('file_unreadable', `cannot read ${opts.rules}: ${(err as Error).message}`);
        }
        const files = new r.RouteFiles(opts);
        const compile = () => {
          try {
            return r.RouteTable.compile(r.parseRouteRules(text, opts.rules), files);
          } finally {
            files.close();
          }
        };
        const table = compile();
        for (const w of table.warnings) process.stderr.write(`warning: ${w}\n`);
        const format = opts.json ? 'json' : 'text';
        if (queries.length > 0) {
          print(queries.map((q) => r.formatDecision(table.decide(q), format, table.firstOutbound)).join(''));
          return;
        }
        print('');
        await answerLines(process.stdin, process.stdout, (q) =>
          r.formatDecision(table.decide(q), format, table.firstOutbound),
        );
      },
    );

  const convert = geo
    .command('convert')
    .description(
      'convert lists between formats: .dat, sing-box .srs/JSON, mihomo .mrs/YAML/text, text, AdGuard, dnsmasq, nftables',
    )
    .argument(
      '<inputs...>',
      'input files (.dat, .srs, .json, .mrs, .yaml, text lists); the format is told from the content',
    )
    .requiredOption(
      '-o, --output <path>',
      'output file, directory (several one-list files) or - (stdout, one text file)',
    )
    .option('--codes <a,b>', 'only these lists (code or code@attr), in this order', codesOption)
    .option('--to <format>', `output format (${FORMAT_NAMES}); default: told from the output's extension`)
    .option('--code <code>', "the code of a one-list input's list (default: its file name, upper case)");
  withTargetOptions(convert).action(async (inputs: string[], opts: ConvertCliOptions) => {
    await runConvert(inputs, opts, opts.codes, false);
  });

  const exporter = geo
    .command('export')
    .description('write one list in any format (the one-list form of convert); text formats go to stdout')
    .argument('<file>', 'a .dat, .srs, .json, .mrs, .yaml or text list')
    .argument('[code]', 'the list code, optionally with attributes: google@ads')
    .option('--format <format>', `output format (${FORMAT_NAMES}); default: text`)
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .addOption(new Option('--code <code>', 'the list code (older form of CODE)').hideHelp())
    .addOption(new Option('--to <format>', 'the format (older form of --format)').hideHelp());
  withTargetOptions(exporter).action(
    async (file: string, code: string | undefined, opts: ExportCliOptions) => {
      const g = await loadGeo();
      const selector = code ?? opts.code;
      if (selector === undefined) throw new g.GeoError('usage', 'geo export needs a list CODE');
      if (code !== undefined && opts.code !== undefined) {
        throw new g.GeoError('usage', 'give the list code once: as CODE or as --code, not both');
      }
      const { code: _code, to: legacyTo, format, output, ...writer } = opts;
      const to = format ?? legacyTo ?? 'text';
      await runConvert([file], { ...writer, to, output: output ?? '-' }, [selector], legacyTo !== undefined);
    },
  );
}

const FORMAT_NAMES = 'dat, srs, json, mrs, yaml, list, text, adguard, dnsmasq, nftables';

interface WriterCliOptions {
  from?: string;
  version: string;
  ipset?: string;
  nftset?: string;
  server?: string;
  table: string;
  set?: string;
}

interface ConvertCliOptions extends WriterCliOptions {
  output: string;
  codes?: string[];
  to?: string;
  code?: string;
}

interface ExportCliOptions extends WriterCliOptions {
  format?: string;
  output?: string;
  code?: string;
  to?: string;
}

/**
 * convert and export: read the inputs, select, convert (with a progress bar on a terminal), say
 * per list what the format could not hold, then write. `legacy`: the older `export --to` form,
 * which reports skipped rules as it always did.
 */
async function runConvert(
  inputs: string[],
  opts: ConvertCliOptions,
  codes: string[] | undefined,
  legacy: boolean,
): Promise<void> {
  const g = await loadGeo();
  const to = g.targetFormat(opts.to, opts.output);
  const from = opts.from?.toLowerCase();
  if (from !== undefined && !(g.isConvertFormat(from) && g.FORMATS[from].readable)) {
    throw new g.GeoError('usage', `--from ${opts.from}: dat, srs, json, mrs, yaml, list or text expected`);
  }
  if (opts.code !== undefined && inputs.length > 1) {
    throw new g.GeoError(
      'usage',
      '--code names the list of one input; several inputs are named by their files',
    );
  }
  const version = Number(opts.version);
  if (version !== 1 && version !== 2 && version !== 3 && version !== 4) {
    throw new g.GeoError('usage', `--version ${opts.version}: 1, 2, 3 or 4 expected`);
  }
  const opened = inputs.map((path) =>
    g.readInputFile(path, { from: from as InputFormat | undefined, code: opts.code }),
  );
  const lists = g.selectLists(opened, codes);
  const result = await withProgress('lists', (onProgress) =>
    g.convertLists(lists, {
      to,
      version,
      dnsmasq: opts,
      nftables: opts,
      onProgress: lists.length >= 100 ? (done, total) => onProgress('lists', done, total) : undefined,
    }),
  );
  const written = g.writeConverted(result, opts.output, to, process.stdout.isTTY === true);
  if (written.stdout) print(Buffer.from(written.stdout));
  const lines: string[] = [];
  for (const account of result.accounts) {
    if (legacy) {
      const skipped = (account.lost.keyword ?? 0) + (account.lost.regexp ?? 0);
      if (skipped > 0) lines.push(`skipped ${skipped} keyword/regexp rules that ${to} cannot express`);
      continue;
    }
    const line = g.describeAccount(account, to);
    if (line !== undefined) lines.push(line);
  }
  if (!legacy && written.paths.length > 0) {
    const rules = result.accounts.reduce((n, a) => n + a.written, 0);
    const unit = result.accounts.every((a) => a.kind === 'ip') ? 'networks' : 'rules';
    const where =
      written.paths.length === 1 ? written.paths[0] : `${written.paths.length} files in ${opts.output}`;
    lines.push(`wrote ${where}: ${result.accounts.length} lists, ${rules} ${unit} (${g.FORMATS[to].title})`);
  }
  if (lines.length > 0) process.stderr.write(`${lines.join('\n')}\n`);
}

/** The options convert and export share: the input format, and each target format's own. */
function withTargetOptions(command: Command): Command {
  return command
    .option(
      '--from <format>',
      'input format, when the content should not decide (text or list for bare names)',
    )
    .option('--version <n>', 'sing-box rule-set version for srs and json: 1, 2, 3 or 4', '2')
    .option('--ipset <names>', 'dnsmasq: ipset=/domain/NAMES (default when no target is given: the code)')
    .option('--nftset <spec>', 'dnsmasq: nftset=/domain/SPEC, e.g. 4#inet#fw#proxy4,6#inet#fw#proxy6')
    .option('--server <addr>', 'dnsmasq: server=/domain/ADDR, e.g. 1.1.1.1 or 127.0.0.1#5353')
    .option('--table <family name>', 'nftables: the table', 'inet branchgate')
    .option('--set <name>', 'nftables: set name base; sets are NAME4 and NAME6 (default: the code)');
}
