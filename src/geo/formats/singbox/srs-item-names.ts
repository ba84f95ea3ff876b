// The item type numbers of sing-box's binary rule-set (common/srs/binary.go) with their source
// JSON names, so that an item a branchgate list cannot hold is refused by name.

/** Source JSON name of each .srs rule item type number. */
export const SRS_ITEM_NAMES: ReadonlyMap<number, string> = new Map([
  [0, 'query_type'],
  [1, 'network'],
  [2, 'domain'],
  [3, 'domain_keyword'],
  [4, 'domain_regex'],
  [5, 'source_ip_cidr'],
  [6, 'ip_cidr'],
  [7, 'source_port'],
  [8, 'source_port_range'],
  [9, 'port'],
  [10, 'port_range'],
  [11, 'process_name'],
  [12, 'process_path'],
  [13, 'package_name'],
  [14, 'wifi_ssid'],
  [15, 'wifi_bssid'],
  [16, 'adguard_domain'],
  [17, 'process_path_regex'],
  [18, 'network_type'],
  [19, 'network_is_expensive'],
  [20, 'network_is_constrained'],
  [21, 'network_interface_address'],
  [22, 'default_interface_address'],
  [0xff, 'final'],
]);
