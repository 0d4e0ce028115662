#!/usr/bin/env bash
# Both NVIDIA-capable GPU backends' evidence in one go (run on an H200, see docs/PERFORMANCE.md):
#   1. audioengine backends, and `best` (must pick the GPU)
#   2. audioengine check --backend cuda and --backend vulkan, same seed
#   3. Silero VAD v5/v6 on CUDA and on Vulkan (every op native: --fallback fail) vs ONNX Runtime (1e-4)
#   4. F32 matmul on Vulkan beside cuBLASLt, same process (VulkanBench with bench.backends=VULKAN,CUDA)
#   5. audioengine bench ops --backend cuda (synchronized timing)
# Usage: scripts/gpu-evidence.sh OUTDIR
# Environment: JAVA_HOME (a Java 25 runtime with jdk.incubator.vector), AE_LIB (module path folder,
# default app-cli/target/dist/lib), VK_BENCH_CP (backend-vulkan's test classes), VAD_DIR (holding
# silero_vad_v5.onnx, silero_vad_v6.onnx and speech.wav), SEED (default 2026). For Vulkan on the
# NVIDIA images: libvulkan1 unpacked and VK_DRIVER_FILES pointing at nvidia_icd.json.
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
out=${1:?usage: gpu-evidence.sh OUTDIR}
mkdir -p "$out"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
lib=${AE_LIB:-$here/../app-cli/target/dist/lib}
seed=${SEED:-2026}
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
access=ALL-UNNAMED,dev.audioengine.api,dev.audioengine.bench
for jar in "$lib"/audioengine-backend-*.jar; do name=$(basename "$jar" .jar); access+=",dev.audioengine.backend.${name#audioengine-backend-}"; done
ae=("$java" --enable-native-access="$access" --add-modules jdk.incubator.vector -p "$lib" -m dev.audioengine.cli/dev.audioengine.cli.Main)
status=0
step() { echo "== $*" >&2; }

step backends
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1; date -u; "${ae[@]}" backends; "${ae[@]}" --backend best --log info backends | tail -2; } > "$out/backends.txt" 2>&1
tail -3 "$out/backends.txt"

for b in cuda vulkan; do
    step "check --backend $b --seed $seed"
    timeout 240 "${ae[@]}" check --backend "$b" --seed "$seed" > "$out/check-$b.txt" 2>&1 || status=1
    grep -E " FAIL|UNSUPPORTED" "$out/check-$b.txt" | head -10
    tail -9 "$out/check-$b.txt"
done

if [ -n "${VAD_DIR:-}" ]; then
    for b in cuda vulkan; do
        for v in v5 v6; do
            step "silero_vad_$v on $b vs onnxruntime"
            timeout 120 "${ae[@]}" --backend "$b" --fallback fail --task vad --audio "$VAD_DIR/speech.wav" \
                --model "$VAD_DIR/silero_vad_$v.onnx" --probabilities-out "$out/vad-$v-$b.txt" > "$out/vad-$v-$b.log" 2>&1 || status=1
            python3 "$here/silero-vad-ort.py" "$VAD_DIR/silero_vad_$v.onnx" "$VAD_DIR/speech.wav" "$out/vad-$v-$b.txt" \
                --tolerance 1e-4 >> "$out/vad-$v-$b.log" 2>&1 || status=1
            tail -2 "$out/vad-$v-$b.log"
        done
    done
fi

if [ -n "${VK_BENCH_CP:-}" ]; then
    step "F32 matmul: Vulkan beside cuBLASLt"
    timeout 180 "$java" --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Dbench.backends=CUDA,VULKAN \
        -cp "$lib/*:$VK_BENCH_CP" dev.audioengine.backend.vulkan.VulkanBench 2048 4096 8192 > "$out/gemm-vulkan-vs-cuda.txt" 2>&1 || status=1
    cat "$out/gemm-vulkan-vs-cuda.txt"
fi

step "bench ops --backend cuda"
timeout 240 "${ae[@]}" bench ops --backend cuda > "$out/bench-ops-cuda.txt" 2>&1 || status=1
tail -25 "$out/bench-ops-cuda.txt"
exit $status
