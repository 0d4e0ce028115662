#!/usr/bin/env bash
# before (launcher of 53c4d71), after (this branch, AOT cache built), ONNX Runtime Java (bench-startup's peer), alternating
cd /work/wt-cold; export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
c=$HOME/.cache/audioengine
peer_cp="models/target/test-classes:models/target/classes:$(cat models/target/test-classpath.txt)"
for r in $(seq $1); do
  for v in before after ort; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    case $v in
      before) AUDIOENGINE_NO_BUILD=1 /usr/bin/time -o /tmp/cold/t -f '%e %U %S %M' ./audioengine-orig --task asr --audio docs/examples/dashwood.wav --threads 1 >/tmp/cold/o 2>/dev/null ;;
      after) AUDIOENGINE_NO_BUILD=1 /usr/bin/time -o /tmp/cold/t -f '%e %U %S %M' ./audioengine --task asr --audio docs/examples/dashwood.wav --threads 1 >/tmp/cold/o 2>/dev/null ;;
      ort) /usr/bin/time -o /tmp/cold/t -f '%e %U %S %M' $JAVA_HOME/bin/java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -cp "$peer_cp" dev.audioengine.models.moonshine.OrtAsrOneShot $c/moonshine-tiny-quantized-encoder_model.onnx $c/moonshine-tiny-quantized-decoder_model_merged.onnx $c/llama-tokenizer.js docs/examples/dashwood.wav 1 >/tmp/cold/o 2>/dev/null ;;
    esac
    echo "$v $(cat /tmp/cold/t) load=$load txt=$(grep -m1 -i dashwood /tmp/cold/o | md5sum | cut -c1-6)"
  done
done
