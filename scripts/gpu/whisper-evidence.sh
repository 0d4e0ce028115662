#!/bin/bash
# Whisper on the GPU machine (issue 30), after scripts/gpu/whisper-package, carrying .gpu-whisper and .gl: the seeded
# random fixture (WhisperFixtureWriter, seed 11 by default, d 64, 2+2 layers) transcribed on CPU, CUDA and Vulkan from
# both layouts (auto language, en, translate): every segment compared with the CPU's; then transformers' reference over
# the same hf/ folder (reference-*.f32 and reference.json for models' WhisperTransformersReferenceTest). $OUT gets
# whisper.tgz (every output) and the reference files.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tar xJf .gpu-whisper/audioengine-image.tar.xz -C /tmp
export AUDIOENGINE_CACHE=/tmp/ae-cache; mkdir -p $AUDIOENGINE_CACHE; cp .gpu-whisper/silero_vad_v6.onnx $AUDIOENGINE_CACHE/
AE=/tmp/audioengine/bin/audioengine; W=.gpu-whisper
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
for b in cpu cuda vulkan; do for m in ggml-random-f16.bin hf; do
  for lang in auto en; do
    $AE --backend $b --fallback fail --task asr --family whisper --model $W/$m --audio $W/audio.wav --language $lang --json > $OUT/w-$b-$m-$lang.json 2> $OUT/w-$b-$m-$lang.err || echo "whisper $b $m $lang failed: $(tail -3 $OUT/w-$b-$m-$lang.err)"
  done
  $AE --backend $b --fallback fail --task asr --family whisper --model $W/$m --audio $W/audio.wav --language en --translate --json > $OUT/w-$b-$m-translate.json 2> $OUT/w-$b-$m-translate.err || echo "whisper $b $m translate failed: $(tail -3 $OUT/w-$b-$m-translate.err)"
done; done
python3 - <<'PY'
import json, glob, os
out = os.environ["OUT"]
runs = {os.path.basename(p)[2:-5]: json.load(open(p)) for p in sorted(glob.glob(out + "/w-*.json")) if os.path.getsize(p) > 0}
for key, doc in runs.items():
    b, rest = key.split("-", 1)
    if b == "cpu": continue
    ref = runs.get("cpu-" + rest)
    same = ref is not None and json.dumps(doc.get("segments"), sort_keys=True) == json.dumps(ref.get("segments"), sort_keys=True)
    print(f"{key}: text {doc.get('text','')[:60]!r} language {doc.get('language')} -> {'SAME as cpu' if same else 'DIFFERS from cpu'}")
PY
cp -r $W/hf /tmp/hf && python3 scripts/gpu/whisper-transformers-reference.py /tmp/hf $W/audio.wav 2>&1 | grep -v Warning | tail -5
cp /tmp/hf/reference* $OUT/
mkdir -p /tmp/wout && mv $OUT/w-* $OUT/device.txt /tmp/wout/ && tar czf $OUT/whisper.tgz -C /tmp/wout .
