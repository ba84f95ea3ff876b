// What a format keeps of an IP list, counted without writing it: .srs and .mrs store merged
// ranges, so they read back as the fewest networks covering the same addresses; every other
// format keeps the networks as listed. (inverse_match is refused by the writers that cannot hold it.)
import { CidrSet } from '../../ip/cidr-set.js';
import type { IpList } from '../../model.js';
import type { ConvertFormat } from './convert-format.js';
import type { Holding } from './site-holding.js';

/** What `to` keeps of an IP list. */
export function ipHolding(list: IpList, to: ConvertFormat): Holding {
  if (to !== 'srs' && to !== 'mrs') return { written: list.cidrs.length, lost: {} };
  const set = new CidrSet();
  for (const c of list.cidrs) set.addCidr(c);
  let written = 0;
  set.merge({
    v4: () => {
      written++;
    },
    v6: () => {
      written++;
    },
  });
  const merged = list.cidrs.length - written;
  return { written, lost: merged > 0 ? { merged } : {} };
}
