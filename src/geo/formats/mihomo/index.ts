// mihomo (Clash Meta) rule providers, behaviors `domain` and `ipcidr`, in their three forms (text,
// YAML `payload:`, binary .mrs): read into and written from branchgate's site and IP lists.
// See docs/geo.md, "mihomo rule providers", for what each form holds and what is refused.

export {
  type DomainEntry,
  type EntryForm,
  parseDomainEntry,
  ruleEntry,
  subdomainPattern,
} from './domain-entry.js';
export { type HeldEntries, heldEntries } from './held-entries.js';
export { readMrs } from './mrs-reader.js';
export { MRS_BEHAVIOR, MRS_MAGIC, mrsPayload, writeMrs } from './mrs-writer.js';
export { parseIpEntry } from './provider-entries.js';
export {
  codeFromName,
  type ProviderBehavior,
  type ProviderForm,
  type ProviderList,
} from './provider-list.js';
export { readProvider } from './read-provider.js';
export { MAX_PAYLOAD, unzstd } from './unzstd.js';
export { writeProviderText } from './write-provider-text.js';
export { zstdFrame } from './zstd-frame.js';
