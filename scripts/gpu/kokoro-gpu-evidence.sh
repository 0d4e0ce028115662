#!/bin/bash
# The Kokoro GPU evidence (docs/PERFORMANCE.md): run on the H200 through the device tool from the repository root
# after scripts/gpu/kokoro-gpu-package, as its header says (.kk/a in a first call, .kk/b and .gl in this one); $OUT
# collects the results. Environment: TARGETS, ROUNDS (engine), ORT_ROUNDS (ONNX Runtime, default ROUNDS),
# KOKORO_PROBE_SAMPLE (stack sampling), PROBE_TIMEOUT (seconds, default 500).
for f in .gl/*.deb .kk/b/debs/*.deb; do dpkg -x $f /; done
cp .kk/b/libpcaudio.so.0 /usr/lib/x86_64-linux-gnu/ && ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /tmp/kk && cat .kk/a/model.gz.0 .kk/b/model.gz.1 | gunzip > /tmp/kk/kokoro-82m-quantized.onnx
cp .kk/b/kokoro-tokenizer.json .kk/b/kokoro-voice-af_heart.bin /tmp/kk/
sha256sum /tmp/kk/* | tee $OUT/kokoro-files.txt
tar xJf .kk/a/audioengine-image.tar.xz -C /tmp
AE=/tmp/audioengine/bin/audioengine
J="/tmp/audioengine/bin/java --add-modules ALL-SYSTEM -cp .kk/a/probe KokoroProbe"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee $OUT/gpu.txt
nproc | tee -a $OUT/gpu.txt
export KOKORO_PROBE_IDS=$OUT/kokoro-ids.json
timeout ${PROBE_TIMEOUT:-500} $J /tmp/kk ${ROUNDS:-5} -- ${TARGETS:-cpu cuda cuda:graphs=off cuda,-fused_attention,-bf16_weights cuda,-conv_transpose1d_col2im,-device_istft vulkan} 2>&1 \
  | grep -v 'INFO\|WARN' | cut -c1-220 | tee $OUT/kokoro-gpu.txt
# ONNX Runtime on the CPU with every core, on the ids the probe synthesized (the peer for the GPU figure)
python3 scripts/peers/kokoro-ort-speed.py /tmp/kk/kokoro-82m-quantized.onnx $OUT/kokoro-ids.json ${ORT_ROUNDS:-${ROUNDS:-5}} 2>&1 | tail -3 | tee -a $OUT/kokoro-gpu.txt
