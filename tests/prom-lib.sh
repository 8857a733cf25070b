# A real Prometheus server on loopback for the tests, sourced after
# tests/lib.sh and tests/live-lib.sh; call live_setup before using it
# (its functions write in $tmp, and prom_start adds the server to
# live_pids, which live_cleanup kills).  Debian's prometheus 2.x and
# promtool; sourcing it skips the test without them or python3.
#
#   (free ports: lib.sh's free_ports N)
#   prom_start CONFIG TSDB_DIR
#                         starts prometheus with that config and TSDB on a
#                         free loopback port ($prom_port, $prom_url) and
#                         waits until /-/ready; its log is $tmp/prometheus.log
#   prom_get PATH         a GET of PATH (with its query, already encoded)
#   prom_query EXPR [TIME]
#                         /api/v1/query of EXPR (URL-encoded here), at TIME
#                         (Unix seconds; now if not given): the API's JSON
#   prom_wait_query EXPR JQ_FILTER
#                         polls prom_query EXPR until JQ_FILTER (jq -e on
#                         the JSON) is true, within the live deadline
#   prom_backfill OM_FILE TSDB_DIR
#                         promtool tsdb create-blocks-from openmetrics
#                         (its output in $tmp/backfill.log)
#   prom_sim DIR ARGS...  a simulated cluster (tests/cluster-sim.py ARGS,
#                         ending now: $prom_end) backfilled into DIR, its
#                         truth in $tmp/truth.json; then prom_start on it,
#                         with the config $prom_sim_config if set, else
#                         one with no target
for _t in prometheus promtool "${PYTHON3:-python3}"; do
	command -v "$_t" >/dev/null 2>&1 || skip_all "$_t is not installed"
done
prom_py=${PYTHON3:-python3}
prom_port=
prom_url=

prom_get() {
	"$prom_py" -c 'import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
		"$prom_url$1" 2>/dev/null
}

prom_query() {
	"$prom_py" -c 'import sys, urllib.parse, urllib.request
q = {"query": sys.argv[2]}
if len(sys.argv) > 3 and sys.argv[3]: q["time"] = sys.argv[3]
u = sys.argv[1] + "/api/v1/query?" + urllib.parse.urlencode(q)
try:
    r = urllib.request.urlopen(u, timeout=30).read()
except urllib.error.HTTPError as e:
    r = e.read()
sys.stdout.write(r.decode())' "$prom_url" "$1" "${2:-}" 2>/dev/null
}

prom_wait_query() {
	_pend=$(($(now_s) + live_deadline))
	until prom_query "$1" | "$JQ" -e "$2" >/dev/null 2>&1; do
		if [ "$(now_s)" -ge "$_pend" ]; then
			echo "# waited ${live_deadline}s for $1 to give $2; last:"
			prom_query "$1" | cut -c1-400 | sed 's/^/#   /'
			return 1
		fi
		sleep 0.2
	done
}

prom_backfill() {
	promtool tsdb create-blocks-from openmetrics "$1" "$2" \
		>"$tmp/backfill.log" 2>&1
}

prom_start() {
	prom_port=$(free_ports 1)
	prom_url="http://127.0.0.1:$prom_port"
	prometheus --config.file="$1" --storage.tsdb.path="$2" \
		--web.listen-address="127.0.0.1:$prom_port" \
		>"$tmp/prometheus.log" 2>&1 &
	live_pids="$live_pids $!"
	_pend=$(($(now_s) + live_deadline))
	until prom_get /-/ready | grep -q Ready; do
		if [ "$(now_s)" -ge "$_pend" ]; then
			echo "# prometheus was not ready after ${live_deadline}s:"
			tail -20 "$tmp/prometheus.log" | sed 's/^/#   /'
			return 1
		fi
		sleep 0.2
	done
}

prom_end=
prom_sim_config=
prom_sim() {
	_dir=$1
	shift
	prom_end=$(now_s)
	"$prom_py" "$srcdir/tests/cluster-sim.py" --end "$prom_end" \
		--out "$tmp/sim.om" --truth "$tmp/truth.json" "$@" || return 1
	prom_end=$("$JQ" .end "$tmp/truth.json")
	mkdir -p "$_dir"
	prom_backfill "$tmp/sim.om" "$_dir" || {
		tail -5 "$tmp/backfill.log" | sed 's/^/#   /'
		return 1
	}
	rm -f "$tmp/sim.om"
	printf 'global:\n  scrape_interval: 15s\nscrape_configs: []\n' \
		>"$tmp/prom_sim.yml"
	prom_start "${prom_sim_config:-$tmp/prom_sim.yml}" "$_dir"
}
