#!/usr/bin/env bash
# The CUDA backend's evidence in one go, on a machine with an NVIDIA GPU (run on an H200):
#   1. audioengine check --backend cuda   (every conformance case against the CPU backend; again
#      with --option cuda.graphs=off)
#   2. audioengine bench ops --backend cuda (every op at a model-sized shape), and
#      CudaBench gemm ops launch leak attention conv (cuBLASLt GEMM, elementwise vs copy bandwidth,
#      launch overhead with/without CUDA graphs, leak cycles, attention, convolutions)
#   3. the PyTorch peer on the same shapes  (scripts/peers/cuda-torch-peer.py)
#   4. with VAD_MODELS and VAD_AUDIO set: Silero VAD probabilities on CUDA vs ONNX Runtime (1e-4)
# Results go to OUTDIR (default $OUT, else ./cuda-evidence): check.txt, bench-cuda.jsonl,
# bench-torch.jsonl, bench-ops.txt, check-nographs.txt, device.txt.
# Environment: JAVA_HOME (a JDK/runtime 25 with jdk.incubator.vector; default: the one on PATH),
# AE_LIB (the module path folder; default app-cli/target/dist/lib), CHECK_SEED (default: fresh).
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-${OUT:-$PWD/cuda-evidence}}
mkdir -p "$out"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
lib=${AE_LIB:-$root/app-cli/target/dist/lib}
[ -f "$lib/audioengine-cli.jar" ] || { echo "cuda-evidence: $lib/audioengine-cli.jar missing; build with 'mvn -DskipTests package' or set AE_LIB" >&2; exit 1; }
# NVRTC and cuBLASLt live in the toolkit's target folder on some images
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export AUDIOENGINE_CACHE=${AUDIOENGINE_CACHE:-/tmp/audioengine-cache}

access=ALL-UNNAMED,dev.audioengine.api,dev.audioengine.audio,dev.audioengine.bench
for jar in "$lib"/audioengine-backend-*.jar; do name=$(basename "$jar" .jar); access+=",dev.audioengine.backend.${name#audioengine-backend-}"; done
jvm=("$java" --enable-native-access="$access" --add-modules jdk.incubator.vector -p "$lib")

status=0
{ date -u +"%Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1; "$java" -version 2>&1; } > "$out/device.txt"
cat "$out/device.txt"

echo "== audioengine check --backend cuda" >&2
seed=()
[ -n "${CHECK_SEED:-}" ] && seed=(--seed "$CHECK_SEED")
t0=$(date +%s)
"${jvm[@]}" -m dev.audioengine.cli/dev.audioengine.cli.Main check --backend cuda "${seed[@]}" > "$out/check.txt" 2>&1 || status=1
echo "check: exit $? in $(( $(date +%s) - t0 ))s" >&2
grep -E "FAIL|UNSUPPORTED" "$out/check.txt" | head -40
tail -14 "$out/check.txt"
# the same cases launch by launch, without CUDA graph capture (--option cuda.graphs=off)
"${jvm[@]}" -m dev.audioengine.cli/dev.audioengine.cli.Main check --backend cuda --option cuda.graphs=off "${seed[@]}" \
    > "$out/check-nographs.txt" 2>&1 || status=1
grep -E "FAIL|UNSUPPORTED" "$out/check-nographs.txt" | head -20
tail -1 "$out/check-nographs.txt"

# Silero VAD on CUDA (every op native: --fallback fail) against ONNX Runtime, when models are given:
# VAD_MODELS="silero_vad_v5.onnx silero_vad_v6.onnx" VAD_AUDIO=speech.wav [VAD_LIB=a dist lib with the vad task]
if [ -n "${VAD_MODELS:-}" ] && [ -n "${VAD_AUDIO:-}" ]; then
    vad_jvm=("$java" --enable-native-access="$access" --add-modules jdk.incubator.vector -p "${VAD_LIB:-$lib}")
    for m in $VAD_MODELS; do
        name=$(basename "$m" .onnx)
        echo "== silero vad $name on cuda vs onnxruntime" >&2
        "${vad_jvm[@]}" -m dev.audioengine.cli/dev.audioengine.cli.Main --task vad --audio "$VAD_AUDIO" --model "$m" --backend cuda \
            --fallback fail --probabilities-out "$out/vad-$name-cuda.txt" > "$out/vad-$name.txt" 2>&1 || status=1
        python3 "$root/scripts/peers/silero-vad-ort.py" "$m" "$VAD_AUDIO" "$out/vad-$name-cuda.txt" --tolerance 1e-4 >> "$out/vad-$name.txt" 2>&1 || status=1
        tail -3 "$out/vad-$name.txt"
    done
fi

echo "== audioengine bench ops --backend cuda" >&2
"${jvm[@]}" -m dev.audioengine.cli/dev.audioengine.cli.Main bench ops --backend cuda > "$out/bench-ops.txt" 2>&1 || status=1
tail -60 "$out/bench-ops.txt"

echo "== CudaBench gemm ops launch leak attention conv" >&2
"${jvm[@]}" --add-modules dev.audioengine.backend.cuda -m dev.audioengine.bench/dev.audioengine.bench.CudaBench ${BENCH:-gemm ops launch leak attention conv} \
    --out "$out/bench-cuda.jsonl" 2>&1 | tail -30 || status=1

echo "== PyTorch peer" >&2
PYTHONUNBUFFERED=1 python3 "$root/scripts/peers/cuda-torch-peer.py" --out "$out/bench-torch.jsonl" 2>&1 | tail -30 || status=1
exit $status
