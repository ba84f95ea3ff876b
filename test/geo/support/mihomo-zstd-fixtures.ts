// zstd-compressed .mrs files for the reader tests, made once with the zstd 1.5.4 CLI (`zstd -19`)
// from payloads branchgate's own mrsPayload wrote for small made-up lists (no third-party data):
//   site: host0..host39.example.com (full), example.org (domain), ^.+\.example\.net$ (subdomains)
//   ip:   10.0.0.0/16, 10.2.0.0/16, ... 10.58.0.0/16 (30 networks) and 2001:db8::/32
// They carry compressed blocks, which branchgate's writer (Raw blocks only) never makes.

/** `zstd -19 site.bin`: single segment with the content size. */
export const siteFcsHex =
  '28b52ffd647c00a5040064064d525301002a0004000100208000111110007fffffff11110008aaa821084210843400aa558455d555ead5ab56ad5ab56a001fffffff00ee676d74726f656f636e2e2e2e6565656c6c6c7070706d6d6d6161617878782b303132333435363738392b74736f68172020913b8850f204a2e40944270f03e248de12c8150003dc4107e780776c20030fc3416c5b2160c6d9d202927b7d02';
/** `zstd -19 site.bin` read from stdin: no content size, an 8 MiB window. */
export const siteStreamHex =
  '28b52ffd0468a5040064064d525301002a0004000100208000111110007fffffff11110008aaa821084210843400aa558455d555ead5ab56ad5ab56a001fffffff00ee676d74726f656f636e2e2e2e6565656c6c6c7070706d6d6d6161617878782b303132333435363738392b74736f68172020913b8850f204a2e40944270f03e248de12c8150003dc4107e780776c20030fc3416c5b2160c6d9d202927b7d02';
/** `zstd -19 ip.bin`: single segment with the content size. */
export const ipFcsHex =
  '28b52ffd64fe027d0400528c1821b0379b010cc350c2300c433902d2ac99313363bbb7c8eeddddbbbe5bee6edc3205f5ff0d8ce6a9136a84faa036a80b6a827aa016a8036a803a5363ea4bfdd4959a524f6a491da921f5a376d48d7a513bb5a24ed488fa5077eaff5bfe4dc3b0a0103ea811047e3d760ef059031010e144e87d2f800854af54bfaafdaafaabea57ab5f557f2199e44f295501e90530ae';
