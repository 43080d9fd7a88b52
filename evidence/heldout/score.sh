#!/usr/bin/env bash
# Rescans every held-out directory (one at a time: a 2-core machine) and scores the reports against truth.json.
#   ./score.sh                 all directories
#   ./score.sh d03-storage-gp2 only these
# JAR defaults to the project's jar; KAFKA_DIR is the embedded broker's data directory (kept apart from ~/.rigscope).
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT=${HELDOUT_DIR:-$HERE/out}
mkdir -p "$OUT" && cd "$OUT"
JAR=${JAR:-$HERE/../../rig/target/rigscope.jar}
KAFKA_DIR=${KAFKA_DIR:-$OUT/.kafka}
mkdir -p runs
[ -f truth.json ] || python3 "$HERE/make.py"
dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
  dirs=($(ls -d d[0-9][0-9]-*/ | tr -d /))
fi
echo "jar: $JAR sha256 $(sha256sum "$JAR" | cut -c1-16)" | tee runs/jar.txt
for DIR in "${dirs[@]}"; do
  SERIES="heldout-$DIR-$(date +%s)"
  CMD=(java -jar "$JAR" rescan "$OUT/$DIR" --series "$SERIES" --report-json "$OUT/$DIR.report.json"
       --data-dir "$KAFKA_DIR" --quiet)
  echo "+ ${CMD[*]}" | tee "runs/$DIR.console.txt"
  "${CMD[@]}" >> "runs/$DIR.console.txt" 2>&1
  echo "exit $?" >> "runs/$DIR.console.txt"
  tail -n +2 "runs/$DIR.console.txt" | grep -v '^kafka:' | grep -E '^(heldout|  (reconciliation|freeze)|   !|exit)' | cut -c1-240
done
python3 "$HERE/score.py" > /dev/null && echo "wrote SCORE.md, score.json"
