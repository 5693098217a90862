#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ (git-ignored) from the shared benchmark and corpus files.
# Usage: bash fuzz/seed-corpus.sh   (from anywhere; ../shared beside the repository is optional)
set -euo pipefail
cd "$(dirname "$0")"
shared=../../shared
mkdir -p corpus/parse corpus/query corpus/differential
n=0
for f in "$shared"/bench/*.txt "$shared"/seeds/*.txt; do
    [ -f "$f" ] || continue
    cp "$f" "corpus/parse/$(basename "$f")"
    n=$((n + 1))
done
# A sample of the real-world corpus (every 10th file), small files only.
if [ -d "$shared/corpus/files" ]; then
    i=0
    for f in "$shared"/corpus/files/*; do
        i=$((i + 1))
        [ $((i % 10)) -eq 0 ] || continue
        [ "$(stat -c %s "$f")" -le 65536 ] || continue
        cp "$f" "corpus/parse/corpus-$(basename "$f")"
        n=$((n + 1))
    done
fi
# query: <dialect byte> robots.txt \xFF\xFE url \xFF\xFE agent
d=0
for f in corpus/parse/*; do
    for url in "/" "https://example.com/a/b?c=d" "/%2Fx*y\$" "//h/p;q#f"; do
        { printf "\\x$(printf %02x $((d % 5)))"; head -c 8192 "$f"; printf '\xff\xfe%s\xff\xfe%s' "$url" "Googlebot"; } \
            > "corpus/query/$(basename "$f")-$d"
        d=$((d + 1))
    done
    [ "$d" -lt 400 ] || break
done
echo "seeded $n parse inputs, $d query inputs"
