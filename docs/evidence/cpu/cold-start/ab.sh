#!/usr/bin/env bash
# The alternating A/B harness as it ran for docs/PERFORMANCE.md, "Less for C2 to compile" (paths of that session:
# audioengine-orig was the launcher of commit 53c4d71, copied beside the new one). Output lines: variant, wall s,
# user s, sys s, peak RSS KB, then -XX:+CITime's C1/C2 elapsed totals and C2 methods/bytecodes (standard, OSR).
# usage: ab.sh ROUNDS name "launcher|opts|aot(on/off)" ...   (alternating)
cd /work/wt-cold
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
rounds=$1; shift
task=${TASK:-asr}
out=/tmp/cold/ab-$(date +%H%M%S).txt
args=("$@")
for r in $(seq $rounds); do
  for ((i=0;i<${#args[@]};i+=2)); do
    name=${args[i]}; spec=${args[i+1]}; launcher=${spec%%|*}; rest=${spec#*|}; opts=${rest%%|*}; aot=${rest#*|}
    load=$(cut -d' ' -f1 /proc/loadavg)
    case $task in
      asr) cmd=(--task asr --audio docs/examples/dashwood.wav --threads 1) ;;
      long) cmd=(--task asr --audio /tmp/cold/long.wav --threads 1) ;;
      vad) cmd=(--task vad --audio docs/examples/dashwood.wav --threads 1) ;;
      tts) cmd=(--task tts --text "The quick brown fox jumps over the lazy dog, and then it runs far away into the forest." --voice af_heart --threads 2 --out /tmp/cold/tts.wav) ;;
    esac
    AUDIOENGINE_NO_BUILD=1 AUDIOENGINE_JAVA_OPTS="-XX:+CITime $opts" AUDIOENGINE_AOT=$aot /usr/bin/time -o /tmp/cold/t -f '%e %U %S %M' $launcher "${cmd[@]}" >/tmp/cold/o 2>/tmp/cold/e || { echo FAIL $name; cat /tmp/cold/e | tail; }
    c1=$(grep 'C1 Compile Time' /tmp/cold/o | awk '{print $4}'); c2=$(grep 'C2 Compile Time' /tmp/cold/o | awk '{print $4}')
    txt=$(grep -v -e '^ ' -e '^$' -e ':$' /tmp/cold/o | head -1 | md5sum | cut -c1-6)
    t4=$(grep 'Tier4 {' /tmp/cold/o | sed -E 's/.*standard: +[0-9.]+ s, ([0-9]+) bytes, ([0-9]+) methods; osr: +[0-9.]+ s, ([0-9]+) bytes, ([0-9]+) methods.*/c2std=\2m\/\1B c2osr=\4m\/\3B/')
    echo "$name $(cat /tmp/cold/t) c1=$c1 c2=$c2 $t4 load=$load txt=$txt" | tee -a $out
  done
  [ "$r" != 1 ] || sleep ${SETTLE:-0}
done
echo "-> $out"
