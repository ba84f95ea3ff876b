// One list of either kind, tagged, as every format reader returns it and every writer takes it.
import type { IpList, SiteList } from '../../model.js';

/** A site list or an IP list, with its kind. */
export type AnyList =
  | { readonly kind: 'site'; readonly list: SiteList }
  | { readonly kind: 'ip'; readonly list: IpList };
