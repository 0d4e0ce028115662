#!/usr/bin/env bash
# Basic Pitch, whole process, one thread: the engine's `./audioengine --task notes` beside Basic Pitch's own package
# on TensorFlow.js's pure-JS CPU backend (scripts/fixtures/basic-pitch-reference.mjs), in alternating rounds on the
# same 10 s of sox-synthesized music at 22050 Hz; prints each round's wall seconds and peak RSS (KiB), then medians.
#
#   scripts/peers/basic-pitch-bench.sh [ROUNDS] [NODE_ROOT]      (KEEP_WAV=FILE keeps the music; ROUNDS 0 makes only that)
#
# NODE_ROOT (default /tmp/bpref) holds @spotify/basic-pitch@1.0.1 and @tensorflow/tfjs@3.21.0 (see the .mjs header).
# The warm (in-process) numbers come from models' BasicPitchBenchmark (docs/BASIC-PITCH.md).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-5}
root=${2:-/tmp/bpref}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 10 s: a plucked scale, a triangle line and plucked triads, mixed
notes=()
i=0
for p in 60 62 64 65 67 69 71 72 74 76 77 79 81 83 84 86 88 89; do
    f=$work/s$i.wav; i=$((i+1))
    sox -R -V1 -n -r 22050 -b 16 -c 1 "$f" synth 0.45 pluck "%$((p-69))" pad "$(echo "0.1 + 0.5 * ($i - 1)" | bc -l)" 0 trim 0 10
    notes+=("$f")
done
k=0
for t in "48 52 55" "53 57 60" "55 59 62" "45 48 52" "41 45 48"; do
    k=$((k+1))
    for p in $t; do
        f=$work/c$i.wav; i=$((i+1))
        sox -R -V1 -n -r 22050 -b 16 -c 1 "$f" synth 1.6 pluck "%$((p-69))" pad "$(( (k - 1) * 2 )).2" 0 trim 0 10
        notes+=("$f")
    done
done
sox -V1 -m "${notes[@]}" "$work/music.wav" norm -3 trim 0 10
soxi -D "$work/music.wav" >&2
# KEEP_WAV=FILE keeps the music (BasicPitchBenchmark's -Dbench.wav); ROUNDS 0 stops here
if [ -n "${KEEP_WAV:-}" ]; then cp "$work/music.wav" "$KEEP_WAV"; fi
[ "$rounds" -gt 0 ] || exit 0

engine=()
peer=()
for r in $(seq "$rounds"); do
    /usr/bin/time -f '%e %M' -o "$work/t" "$here/audioengine" --task notes --backend cpu --threads 1 -q \
        --audio "$work/music.wav" --out "$work/engine.mid" > "$work/engine.txt"
    engine+=("$(cat "$work/t")")
    /usr/bin/time -f '%e %M' -o "$work/t" node "$here/scripts/fixtures/basic-pitch-reference.mjs" "$root" \
        "$work/music.wav" "$work/peer" > /dev/null 2>&1
    peer+=("$(cat "$work/t")")
    echo "round $r: engine ${engine[-1]}  tfjs ${peer[-1]}" >&2
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
em=$(printf '%s\n' "${engine[@]}" | cut -d' ' -f1 | median); er=$(printf '%s\n' "${engine[@]}" | cut -d' ' -f2 | median)
pm=$(printf '%s\n' "${peer[@]}" | cut -d' ' -f1 | median); pr=$(printf '%s\n' "${peer[@]}" | cut -d' ' -f2 | median)
echo "engine: median ${em} s, peak RSS ${er} KiB; notes: $(wc -l < "$work/engine.txt")"
echo "tfjs:   median ${pm} s, peak RSS ${pr} KiB; notes: $(python3 -c "import json;print(len(json.load(open('$work/peer/reference.json'))['settings'][0]['events']))")"
echo "speed-up: $(echo "$pm / $em" | bc -l | cut -c1-4)x"
