#!/usr/bin/env bash
# Runs `mdsearch eval` on every dev query set (docs/evaluation.md).
# Usage: scripts/eval-dev.sh [extra eval flags...]; CONFIGS overrides the
# configurations (default: the baseline, each mode of mdsearch's chunker);
# CACHE_DIR keeps each set's vectors between runs (for tuning).
set -euo pipefail
cd "$(dirname "$0")/.."
C=../shared/corpora
BIN=${BIN:-bin/mdsearch}
CONFIGS=${CONFIGS:-bm25-sections,sections-keyword,sections-semantic,sections-hybrid}
run() { # name vault queries
  echo "== $1"
  local cache=()
  if [ -n "${CACHE_DIR:-}" ]; then cache=(--embed-cache "$CACHE_DIR/$1.gob"); fi
  "$BIN" eval --vault "$2" --queries "$3" --config "$CONFIGS" "${cache[@]}" "${@:4}" 2>&1 | grep -v '^  *$' | sed -n '/^config\|^ *[a-z0-9-]*  \|^top scores\|^calibration\|^misspelled/p'
}
# Off-topic queries come from a set about other things: the Wikipedia
# questions for the technical docs, the technical link contexts for them.
WIKI=(--off-topic $C/chroma-wikitexts/queries.jsonl)
TECH=(--off-topic $C/vue-docs/queries.jsonl --off-topic $C/rust-book/queries.jsonl)
run chroma-wikitexts $C/chroma-wikitexts/vault $C/chroma-wikitexts/queries.jsonl "${TECH[@]}" "$@"
run qmd-eval $C/qmd-eval/test $C/qmd-eval/queries.jsonl "${WIKI[@]}" "$@"
run vue-docs $C/vue-docs/vault $C/vue-docs/queries.jsonl "${WIKI[@]}" "$@"
run rust-book $C/rust-book/src $C/rust-book/queries.jsonl "${WIKI[@]}" "$@"
