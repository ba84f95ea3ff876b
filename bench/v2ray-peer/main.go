// v2ray-peer: the peer side of bench/geo-peer.ts. It loads a geosite.dat or geoip.dat the way
// v2ray 4.34 does (the whole file unmarshalled with the generated protobuf code, then one
// router.DomainMatcher or router.GeoIPMatcher per list, built by v2ray's own code from Debian's
// golang-v2ray-core-dev) and reports, as one JSON line, the build time, the resident memory after
// the build and its peak, and the median time of a which-all lookup (every list asked in turn,
// as a router rule over all of them would) over the queries in a file.
//
// Build (GOPATH mode; the Debian packages put v2ray and its dependencies in /usr/share/gocode):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o v2ray-peer bench/v2ray-peer/main.go
//
// Run:
//
//	v2ray-peer site|ip FILE [-codes a,b] [-queries FILE] [-rounds N]
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io/ioutil"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/golang/protobuf/proto"
	"v2ray.com/core/app/router"
)

type report struct {
	Kind        string  `json:"kind"`
	Lists       int     `json:"lists"`
	Rules       int     `json:"rules"`
	BuildMs     float64 `json:"buildMs"`
	RssKb       int     `json:"rssKb"`
	PeakRssKb   int     `json:"peakRssKb"`
	Queries     int     `json:"queries"`
	Hits        int     `json:"hits"`
	NsPerLookup float64 `json:"nsPerLookup"`
}

// statusKb reads a field such as VmRSS or VmHWM (in kB) from /proc/self/status.
func statusKb(field string) int {
	data, err := ioutil.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, field+":") {
			parts := strings.Fields(line)
			if len(parts) >= 2 {
				n, _ := strconv.Atoi(parts[1])
				return n
			}
		}
	}
	return -1
}

func wanted(codes string) map[string]bool {
	if codes == "" {
		return nil
	}
	set := map[string]bool{}
	for _, c := range strings.Split(codes, ",") {
		set[strings.ToUpper(strings.TrimSpace(c))] = true
	}
	return set
}

func readQueries(path string) []string {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := strings.TrimSpace(s.Text()); line != "" {
			out = append(out, line)
		}
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "v2ray-peer:", err)
	os.Exit(1)
}

// medianNs returns the median ns per query over rounds timed rounds, after passes over the
// queries for warmMs; each round repeats passes until it has run roundMs. The same scheme as our
// side (bench/support/geo-load-child.mjs), whose JIT needs the warm-up; here it costs nothing.
func medianNs(rounds int, n int, pass func() int) (float64, int) {
	const warmMs, roundMs = 300, 100
	hits := 0
	for warm := time.Now(); time.Since(warm) < warmMs*time.Millisecond; {
		hits = pass()
	}
	times := make([]float64, 0, rounds)
	for r := 0; r < rounds; r++ {
		start := time.Now()
		passes := 0
		for time.Since(start) < roundMs*time.Millisecond {
			hits = pass()
			passes++
		}
		times = append(times, float64(time.Since(start).Nanoseconds())/float64(n*passes))
	}
	sort.Float64s(times)
	return times[len(times)/2], hits
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: v2ray-peer site|ip FILE [-codes a,b] [-queries FILE] [-rounds N]")
		os.Exit(2)
	}
	kind, file := os.Args[1], os.Args[2]
	flags := flag.NewFlagSet("v2ray-peer", flag.ExitOnError)
	codes := flags.String("codes", "", "only these lists (comma-separated)")
	queriesPath := flags.String("queries", "", "a file of queries, one a line")
	rounds := flags.Int("rounds", 5, "timed passes over the queries")
	flags.Parse(os.Args[3:])
	only := wanted(*codes)
	rep := report{Kind: kind}

	start := time.Now()
	bytes, err := ioutil.ReadFile(file)
	if err != nil {
		fail(err)
	}
	switch kind {
	case "site":
		var list router.GeoSiteList
		if err := proto.Unmarshal(bytes, &list); err != nil {
			fail(err)
		}
		bytes = nil
		var matchers []*router.DomainMatcher
		for _, entry := range list.Entry {
			if only != nil && !only[strings.ToUpper(entry.CountryCode)] {
				continue
			}
			m, err := router.NewDomainMatcher(entry.Domain)
			if err != nil {
				fail(fmt.Errorf("list %s: %v", entry.CountryCode, err))
			}
			matchers = append(matchers, m)
			rep.Rules += len(entry.Domain)
		}
		list.Entry = nil
		rep.Lists = len(matchers)
		rep.BuildMs = float64(time.Since(start).Microseconds()) / 1000
		rep.RssKb = statusKb("VmRSS")
		queries := readQueries(*queriesPath)
		if len(queries) > 0 {
			rep.Queries = len(queries)
			rep.NsPerLookup, rep.Hits = medianNs(*rounds, len(queries), func() int {
				hits := 0
				for _, q := range queries {
					for _, m := range matchers {
						if m.ApplyDomain(q) {
							hits++
						}
					}
				}
				return hits
			})
		}
	case "ip":
		var list router.GeoIPList
		if err := proto.Unmarshal(bytes, &list); err != nil {
			fail(err)
		}
		bytes = nil
		var matchers []*router.GeoIPMatcher
		for _, entry := range list.Entry {
			if only != nil && !only[strings.ToUpper(entry.CountryCode)] {
				continue
			}
			m := &router.GeoIPMatcher{}
			if err := m.Init(entry.Cidr); err != nil {
				fail(fmt.Errorf("list %s: %v", entry.CountryCode, err))
			}
			matchers = append(matchers, m)
			rep.Rules += len(entry.Cidr)
		}
		list.Entry = nil
		rep.Lists = len(matchers)
		rep.BuildMs = float64(time.Since(start).Microseconds()) / 1000
		rep.RssKb = statusKb("VmRSS")
		texts := readQueries(*queriesPath)
		if len(texts) > 0 {
			// Parsed once up front, as v2ray's router receives addresses already parsed.
			addresses := make([]net.IP, 0, len(texts))
			for _, t := range texts {
				ip := net.ParseIP(t)
				if ip == nil {
					fail(fmt.Errorf("not an address: %q", t))
				}
				if v4 := ip.To4(); v4 != nil {
					ip = v4
				}
				addresses = append(addresses, ip)
			}
			rep.Queries = len(addresses)
			rep.NsPerLookup, rep.Hits = medianNs(*rounds, len(addresses), func() int {
				hits := 0
				for _, a := range addresses {
					for _, m := range matchers {
						if m.Match(a) {
							hits++
						}
					}
				}
				return hits
			})
		}
	default:
		fail(fmt.Errorf("unknown kind %q (site or ip)", kind))
	}
	rep.PeakRssKb = statusKb("VmHWM")
	out, _ := json.Marshal(rep)
	fmt.Println(string(out))
}
