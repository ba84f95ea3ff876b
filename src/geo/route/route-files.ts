// The files a rule list names, for the CLI: `geosite:` reads the --site file, `geoip:` the --ip
// file, and `ext:FILE:CODE` reads FILE beside the --site file (domain entries) or the --ip file
// (ip entries), as v2ray reads every one of them from its asset directory. The server gives no
// ext: files (a request may not name files to read).
import { dirname, join } from 'node:path';
import { GeoDat } from '../dat/geo-dat.js';
import { GeoError } from '../errors.js';
import { GEOIP_FILE, GEOSITE_FILE } from './route-entries.js';
import type { RouteAssets } from './route-table.js';

/** Files opened on demand, each once; close() closes them all. */
export class RouteFiles implements RouteAssets {
  private readonly opened = new Map<string, GeoDat>();

  constructor(
    private readonly paths: {
      readonly site?: string | undefined;
      readonly ip?: string | undefined;
      /** false: refuse ext: entries (the server). */
      readonly ext?: boolean | undefined;
    },
  ) {}

  /** Opens `geosite.dat` / `geoip.dat` (the given files) or an ext: file beside them. */
  open(file: string, kind: 'site' | 'ip'): GeoDat {
    const given = kind === 'site' ? this.paths.site : this.paths.ip;
    const flag = kind === 'site' ? '--site' : '--ip';
    const named =
      file === (kind === 'site' ? GEOSITE_FILE : GEOIP_FILE)
        ? `${kind === 'site' ? 'geosite' : 'geoip'}:`
        : `ext:${file}`;
    if (named.startsWith('ext:') && this.paths.ext === false) {
      throw new GeoError(
        'route_rule',
        `ext: files are not read here (${file}); use geosite: and geoip: lists`,
      );
    }
    if (!given) {
      const none = kind === 'site' ? 'site file' : 'IP file';
      const how = this.paths.ext === false ? 'is loaded' : `is given (${flag})`;
      throw new GeoError('route_rule', `the rules name ${named} lists but no ${none} ${how}`);
    }
    // As Go's filepath.Join(assetDir, file): an absolute FILE is still taken under the directory.
    const path = named.startsWith('ext:') ? join(dirname(given), file) : given;
    let dat = this.opened.get(path);
    if (!dat) {
      dat = GeoDat.open(path);
      this.opened.set(path, dat);
    }
    return dat;
  }

  /** Closes every file opened. */
  close(): void {
    for (const dat of this.opened.values()) dat.close();
    this.opened.clear();
  }
}
