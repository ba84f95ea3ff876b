// Plain data shapes the geo compilers, readers and (later) the matcher share. They mirror
// proto/geo.proto but skip the generated message classes so hot paths stay allocation-light.

/**
 * Rule types, numbered as on the wire (Plain=0 keyword, Regex=1, RootDomain=2, Full=3): the
 * values of geo.proto's Domain.Type, written out here so that loading the matchers does not load
 * the generated descriptors and the protobuf runtime (about 9 MB of a router's memory).
 * test/geo/wire.test.ts checks them against the generated enum.
 */
export const DomainType = { Plain: 0, Regex: 1, RootDomain: 2, Full: 3 } as const;
/** A rule type number as on the wire. */
export type DomainType = (typeof DomainType)[keyof typeof DomainType];

/** A rule attribute such as `@ads`: a boolean flag, or an int64 value from files that carry one. */
export interface SiteAttribute {
  readonly key: string;
  readonly value: boolean | bigint;
}

/** One domain rule of a site list. */
export interface SiteRule {
  readonly type: DomainType;
  readonly value: string;
  readonly attributes: readonly SiteAttribute[];
}

/** A named domain list (GeoSite); code is upper case as written in country_code. */
export interface SiteList {
  readonly code: string;
  readonly rules: readonly SiteRule[];
}

/** An IP network: ip holds 4 bytes (IPv4) or 16 bytes (IPv6), network bits only. */
export interface Cidr {
  readonly ip: Uint8Array;
  readonly prefix: number;
}

/** A named IP list (GeoIP); code is upper case as written in country_code. */
export interface IpList {
  readonly code: string;
  readonly cidrs: readonly Cidr[];
  readonly inverseMatch: boolean;
}
