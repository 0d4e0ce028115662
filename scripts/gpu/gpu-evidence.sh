#!/usr/bin/env bash
# Both NVIDIA-capable GPU backends' evidence in one go (run on an H200, see docs/PERFORMANCE.md):
#   1. audioengine backends, and `best` (must pick the GPU)
#   2. audioengine check --backend cuda (CUDA graphs on, then off) and --backend vulkan, same seed;
#      the whole catalogue includes the multi-run state cases, which also go to check-state-*.txt on
#      their own (--op write_slice, --op key_mask)
#      With STATE_PROBE_CP (a folder holding scripts/gpu/StateBoundsProbe.java compiled against AE_LIB):
#      what a write past a persistent tensor's capacity does on CUDA (graphs on and off) and Vulkan:
#      state-bounds.txt
#   3. Silero VAD v5/v6 on CUDA and on Vulkan (every op native: --fallback fail) vs ONNX Runtime (1e-4)
#   4. F32 matmul on Vulkan beside cuBLASLt, same process (VulkanBench with bench.backends=VULKAN,CUDA)
#   5. audioengine bench ops --backend cuda (synchronized timing; BENCH_OPS=off skips it)
#   6. every kernel source compiled by hipRTC for HIP_ARCHS (default gfx1100,gfx1103,gfx1151: RDNA3 and
#      RDNA3.5) with the ROCm in ROCM_DIR (default the newest /opt/rocm-5.7*, else the loader path's:
#      the CUDA image has Debian's ROCm 5.7 libamdhip64 in /usr/lib/x86_64-linux-gnu; HIP_ARCHS=off
#      skips it), no AMD GPU needed; the first line of hip-kernels.txt names the hipRTC used
# Usage: scripts/gpu/gpu-evidence.sh OUTDIR
# Environment: JAVA_HOME (a Java 25 runtime with jdk.incubator.vector), AE_LIB (module path folder,
# default app-cli/target/dist/lib), VK_BENCH_CP (backend-vulkan's test classes), VAD_DIR (holding
# silero_vad_v5.onnx, silero_vad_v6.onnx and speech.wav), SEED (default 2026). For Vulkan on the
# NVIDIA images: libvulkan1 unpacked and VK_DRIVER_FILES pointing at nvidia_icd.json.
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
out=${1:?usage: gpu-evidence.sh OUTDIR}
mkdir -p "$out"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
lib=${AE_LIB:-$here/../../app-cli/target/dist/lib}
seed=${SEED:-2026}
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
access=ALL-UNNAMED,dev.audioengine.api,dev.audioengine.audio,dev.audioengine.bench
for jar in "$lib"/audioengine-backend-*.jar; do name=$(basename "$jar" .jar); access+=",dev.audioengine.backend.${name#audioengine-backend-}"; done
ae=("$java" --enable-native-access="$access" --add-modules jdk.incubator.vector -p "$lib" -m dev.audioengine.cli/dev.audioengine.cli.Main)
status=0
step() { echo "== $*" >&2; }

step backends
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1; date -u; "${ae[@]}" backends; "${ae[@]}" --backend best --log info backends | tail -2; } > "$out/backends.txt" 2>&1
tail -3 "$out/backends.txt"

# name:backend:extra option; cuda-nographs replays every case launch by launch instead of as a captured CUDA graph
for run in cuda:cuda: cuda-nographs:cuda:cuda.graphs=off vulkan:vulkan:; do
    IFS=: read -r name b opt <<< "$run"
    option=()
    [ -n "$opt" ] && option=(--option "$opt")
    step "check --backend $b ${option[*]} --seed $seed"
    timeout 240 "${ae[@]}" check --backend "$b" "${option[@]}" --seed "$seed" > "$out/check-$name.txt" 2>&1 || status=1
    grep -E " FAIL|UNSUPPORTED" "$out/check-$name.txt" | head -10
    tail -9 "$out/check-$name.txt"
    # the persistent-tensor cases on their own: each runs several times with the state carried between runs
    for op in write_slice key_mask; do
        timeout 120 "${ae[@]}" check --backend "$b" "${option[@]}" --op "$op" --seed "$seed" >> "$out/check-state-$name.txt" 2>&1 || status=1
    done
    tail -1 "$out/check-state-$name.txt"
done

if [ -n "${STATE_PROBE_CP:-}" ]; then
    step "writes past the capacity of a persistent tensor (StateBoundsProbe)"
    timeout 120 "$java" --enable-native-access="$access" --add-modules jdk.incubator.vector -p "$lib" --add-modules ALL-MODULE-PATH \
        -cp "$STATE_PROBE_CP" StateBoundsProbe cuda cuda:graphs=off vulkan > "$out/state-bounds.txt" 2>&1 || status=1
    grep -v "^OK" "$out/state-bounds.txt"
fi

if [ -n "${VAD_DIR:-}" ]; then
    for b in cuda vulkan; do
        for v in v5 v6; do
            step "silero_vad_$v on $b vs onnxruntime"
            timeout 120 "${ae[@]}" --backend "$b" --fallback fail --task vad --audio "$VAD_DIR/speech.wav" \
                --model "$VAD_DIR/silero_vad_$v.onnx" --probabilities-out "$out/vad-$v-$b.txt" > "$out/vad-$v-$b.log" 2>&1 || status=1
            python3 "$here/../peers/silero-vad-ort.py" "$VAD_DIR/silero_vad_$v.onnx" "$VAD_DIR/speech.wav" "$out/vad-$v-$b.txt" \
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

if [ "${BENCH_OPS:-on}" != off ]; then
    step "bench ops --backend cuda"
    timeout 240 "${ae[@]}" bench ops --backend cuda > "$out/bench-ops-cuda.txt" 2>&1 || status=1
    tail -25 "$out/bench-ops-cuda.txt"
fi

archs=${HIP_ARCHS:-gfx1100,gfx1103,gfx1151}
if [ "$archs" != off ]; then
    rocm=${ROCM_DIR:-$(ls -d /opt/rocm-5.7* 2>/dev/null | sort -V | tail -1)}
    step "kernels compile --backend hip --arch $archs (ROCm: ${rocm:-on the loader path})"
    {
        # hipRTC, comgr and the device libraries from that ROCm; the CUDA steps above keep their own path
        if [ -n "$rocm" ]; then hip_path="$rocm/lib:$rocm/lib64"; else hip_path=${LD_LIBRARY_PATH:-}; fi
        LD_LIBRARY_PATH="$hip_path" timeout 600 "${ae[@]}" kernels compile --backend hip --arch "$archs" 2>&1
    } > "$out/hip-kernels.txt" 2>&1 || status=1
    cat "$out/hip-kernels.txt"
fi
exit $status
