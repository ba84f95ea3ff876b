// Writes an IP list as an nftables file: a table with two interval sets, NAME4 (ipv4_addr) and
// NAME6 (ipv6_addr), holding the list's networks; load it with `nft -f FILE`.
import { GeoError } from '../../errors.js';
import { formatCidr } from '../../ip/ip-address.js';
import type { IpList } from '../../model.js';

/** The table and set names. */
export interface NftablesOptions {
  /** `family name` (default `inet branchgate`). */
  readonly table?: string | undefined;
  /** Set name base (default: the code, lower case); the sets are NAME4 and NAME6. */
  readonly set?: string | undefined;
}

/** The nftables text of an IP list; inverse_match has no set form and is refused. */
export function writeNftables(list: IpList, options: NftablesOptions = {}): string {
  if (list.inverseMatch) {
    throw new GeoError(
      'export_unsupported',
      `list ${list.code} has inverse_match (every address outside its networks), which an nftables set cannot hold`,
    );
  }
  const table = options.table ?? 'inet branchgate';
  if (!/^(ip|ip6|inet|arp|bridge|netdev) [A-Za-z0-9_-]+$/.test(table)) {
    throw new GeoError(
      'export_unsupported',
      `--table must be "<family> <name>", e.g. "inet branchgate" (got "${table}")`,
    );
  }
  const base = options.set ?? list.code.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(base))
    throw new GeoError('export_unsupported', `invalid nftables set name "${base}"`);
  const v4 = list.cidrs.filter((c) => c.ip.length === 4).map((c) => formatCidr(c.ip, c.prefix));
  const v6 = list.cidrs.filter((c) => c.ip.length === 16).map((c) => formatCidr(c.ip, c.prefix));
  const set = (name: string, type: string, elements: string[]): string[] => {
    const lines = [`\tset ${name} {`, `\t\ttype ${type}`, '\t\tflags interval'];
    if (elements.length > 0) {
      lines.push('\t\telements = {');
      for (let i = 0; i < elements.length; i++) {
        lines.push(`\t\t\t${elements[i]}${i < elements.length - 1 ? ',' : ''}`);
      }
      lines.push('\t\t}');
    }
    lines.push('\t}');
    return lines;
  };
  const lines = [
    `# ${list.code}: ${v4.length} IPv4 and ${v6.length} IPv6 networks; load with: nft -f FILE`,
    `table ${table} {`,
    ...set(`${base}4`, 'ipv4_addr', v4),
    ...set(`${base}6`, 'ipv6_addr', v6),
    '}',
  ];
  return `${lines.join('\n')}\n`;
}
