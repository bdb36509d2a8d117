#!/usr/bin/env bash
# Times command-line searches, each in a new process: hybrid and keyword-only
# runs alternate, so load from other work falls on both alike.
#
#   scripts/coldsearch.sh [-n RUNS] [-busy] [-q QUERY] INDEX [BINARY...]
#
# -busy keeps one core busy with a shell loop for the whole run (stopped at
# the end). BINARY defaults to bin/mdsearch; give several to compare builds
# side by side. Prints the median, fastest and slowest wall time in ms of
# each binary and mode, and the load average before and after.
set -euo pipefail

runs=21 busy=0 query="how are closures captured"
while [[ $# -gt 0 ]]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	-busy) busy=1; shift ;;
	-q) query=$2; shift 2 ;;
	*) break ;;
	esac
done
[[ $# -ge 1 ]] || { sed -n '2,10p' "$0"; exit 2; }
index=$1; shift
bins=("$@")
[[ ${#bins[@]} -gt 0 ]] || bins=(bin/mdsearch)

hog=
if [[ $busy == 1 ]]; then
	bash -c 'while :; do :; done' &
	hog=$!
	sleep 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [[ -z $hog ]] || kill "$hog"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
modes=(hybrid keyword)
# One untimed search per binary and mode warms the page cache.
for b in "${bins[@]}"; do
	for m in "${modes[@]}"; do "$b" search --mode "$m" --index "$index" -n 5 "$query" >/dev/null; done
done
for _ in $(seq "$runs"); do
	for i in "${!bins[@]}"; do
		for m in "${modes[@]}"; do
			t0=$(date +%s%N)
			"${bins[$i]}" search --mode "$m" --index "$index" -n 5 "$query" >/dev/null
			echo $((($(date +%s%N) - t0) / 1000)) >>"$tmp/$i.$m"
		done
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in "${!bins[@]}"; do
	for m in "${modes[@]}"; do
		sort -n "$tmp/$i.$m" | awk -v b="${bins[$i]}" -v m="$m" '{ t[NR] = $1 }
			END { printf "%-28s %-8s p50 %6.1f ms  min %6.1f  max %6.1f  (%d runs)\n", b, m, t[int((NR + 1) / 2)] / 1000, t[1] / 1000, t[NR] / 1000, NR }'
	done
done
