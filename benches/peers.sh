#!/usr/bin/env bash
# Replay speed side by side with the batch simulators researchers use: pyss (the Parallel
# Workloads community's simulator, Python 2.7) and AccaSim (1.1.3, Python 3.9). qosgate does not
# depend on them: this script runs whichever it finds and skips the others.
#
# usage: benches/peers.sh [TRACE.swf ...]
#   (default: SDSC-SP2-1998-first5000, HPC2N-2002-subset3171, LLNL-Thunder-2007-1.1-cln and
#   LLNL-Atlas-2006-2.1-cln from $TRACES; pyss takes about 35 s on Thunder under EASY, so the
#   default list runs for about half an hour: name the small traces to be quick)
# environment:
#   PEERS     the folder with pyss/, pyss_driver.py, accasim_driver.py, clean.awk and the AccaSim
#             wheel (default ../shared/peers, where this project's machines keep them)
#   TRACES    the folder of the full SWF traces (default ../shared/traces, likewise)
#   PYTHON2   a Python 2.7 for pyss, run with -O (default python2.7; under pyenv, e.g.
#             ~/.pyenv/versions/2.7.18/bin/python2.7)
#   ACCASIM   a Python with AccaSim installed (default: a venv under target/peers, made once
#             from the wheel in PEERS with $PYTHON39, if it runs)
#   PYTHON39  a Python 3.9 to make that venv with (default python3.9; under pyenv, e.g.
#             ~/.pyenv/versions/3.9.18/bin/python3.9)
#   RUNS      timed runs per tool, alternating (default 3); the median is reported
#   POLICIES  (default "fcfs easy conservative"; AccaSim has FCFS and EASY only)
#
# Each trace is cleaned once with PEERS/clean.awk for its header's MaxProcs, so that every tool
# reads the same jobs. Times are whole processes (start-up, parsing, the replay, the schedule
# written as CSV), in seconds; the ratio is the peer's median over qosgate's. The column `read_s`
# is qosgate reading the trace and writing the same CSV without scheduling (`backfill
# --parse-only`: every job starts at its arrival), the floor under any policy's replay.
set -euo pipefail
cd "$(dirname "$0")/.."
PEERS=${PEERS:-../shared/peers}
TRACES=${TRACES:-../shared/traces}
PYTHON2=${PYTHON2:-python2.7}
PYTHON39=${PYTHON39:-python3.9}
RUNS=${RUNS:-3}
POLICIES=${POLICIES:-fcfs easy conservative}
WORK=target/peers
mkdir -p "$WORK"
[ -d "$PEERS" ] || { echo "no peers folder $PEERS (set PEERS)" >&2; exit 1; }
if [ $# -eq 0 ]; then
  set -- "$TRACES/SDSC-SP2-1998-first5000.swf" "$TRACES/HPC2N-2002-subset3171.swf" \
    "$TRACES/LLNL-Thunder-2007-1.1-cln.swf" "$TRACES/LLNL-Atlas-2006-2.1-cln.swf"
fi

cargo build --release -q -p qosgate --bin qosgate
QOSGATE=${CARGO_TARGET_DIR:-target}/release/qosgate

have_pyss=0
if "$PYTHON2" -c pass 2> /dev/null && [ -f "$PEERS/pyss_driver.py" ]; then have_pyss=1; fi
if [ -z "${ACCASIM:-}" ] && "$PYTHON39" -c pass 2> /dev/null \
    && ls "$PEERS"/accasim-*.whl > /dev/null 2>&1; then
  if [ ! -x "$WORK/venv/bin/python" ]; then
    "$PYTHON39" -m venv "$WORK/venv"
    "$WORK/venv/bin/pip" install -q "$PEERS"/accasim-*.whl
  fi
  ACCASIM=$WORK/venv/bin/python
fi
have_accasim=0
if [ -n "${ACCASIM:-}" ] && "$ACCASIM" -c 'import accasim' 2> /dev/null; then have_accasim=1; fi
[ $have_pyss = 1 ] || echo "pyss not found ($PYTHON2, $PEERS/pyss_driver.py): skipped" >&2
[ $have_accasim = 1 ] || echo "AccaSim not found (set ACCASIM): skipped" >&2

# Seconds one run of "$@" takes, output discarded.
seconds() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" > /dev/null 2>&1
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000))
}

# The median of the microsecond counts on standard input.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-28s %-13s %10s %12s %12s %8s %12s %8s\n' \
  trace policy read_s qosgate_s pyss_s ratio accasim_s ratio
for trace in "$@"; do
  name=$(basename "$trace" .swf)
  procs=$(awk '/MaxProcs:/ { print $NF; exit }' "$trace")
  [ -n "$procs" ] || { echo "$trace: no MaxProcs in the header" >&2; exit 1; }
  clean=$WORK/$name-clean.swf
  awk -v N="$procs" -f "$PEERS/clean.awk" "$trace" > "$clean" 2> /dev/null
  r=()
  for _ in $(seq "$RUNS"); do
    r+=("$(seconds "$QOSGATE" backfill --parse-only --swf "$clean" --out "$WORK/r.csv")")
  done
  rm=$(printf '%s\n' "${r[@]}" | median)
  for policy in $POLICIES; do
    q=() p=() a=()
    for _ in $(seq "$RUNS"); do
      q+=("$(seconds "$QOSGATE" backfill --policy "$policy" --swf "$clean" --out "$WORK/q.csv")")
      if [ $have_pyss = 1 ]; then
        p+=("$(seconds "$PYTHON2" -O "$PEERS/pyss_driver.py" "$policy" "$procs" "$clean" "$WORK/p.csv")")
      fi
      if [ $have_accasim = 1 ] && [ "$policy" != conservative ]; then
        a+=("$(seconds "$ACCASIM" "$PEERS/accasim_driver.py" "$policy" "$procs" "$clean" "$WORK/accasim")")
      fi
    done
    qm=$(printf '%s\n' "${q[@]}" | median)
    row() {
      if [ $# -eq 0 ]; then printf ' %12s %8s' - -; return; fi
      local m
      m=$(printf '%s\n' "$@" | median)
      printf ' %12.3f %7.0fx' "$(echo "$m / 1000000" | bc -l)" "$(echo "$m / $qm" | bc -l)"
    }
    printf '%-28s %-13s %10.4f %12.4f' "$name" "$policy" "$(echo "$rm / 1000000" | bc -l)" \
      "$(echo "$qm / 1000000" | bc -l)"
    row ${p[@]+"${p[@]}"}
    row ${a[@]+"${a[@]}"}
    printf '\n'
  done
done
