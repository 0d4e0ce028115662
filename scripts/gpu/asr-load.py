"""Many clients against an audioengine server's /v1/audio/transcriptions, each sending audio of its own: the pair
(a, b) of two Debian recordings with 0.8 s of silence between, a != b, the first CLIENTS pairs (the same audio as
server/src/test/.../LoadTest). First every pair once, one request at a time (single-stream latency, and each pair's
transcript alone); then CLIENTS clients at once, ROUNDS requests each, every answer checked against its pair's
transcript alone (no cross-talk). Prints one JSON line; also writes each pair's WAV and engine token count to
OUT_DIR (pairs.json) for the transformers peer (scripts/peers/moonshine-transformers-batched.py,
whisper-transformers-batched.py). ASR_MODEL names the served model (default moonshine-tiny); ASR_FIELDS adds form
fields to every request, "name=value,name=value" (Whisper's comparison sends language=en: scripts/gpu/whisper-batching.sh).

    python3 scripts/gpu/asr-load.py URL AUDIO_DIR CLIENTS ROUNDS OUT_DIR LABEL
"""
import glob
import json
import os
import statistics
import sys
import threading
import time
import urllib.request
import uuid
import wave


def pcm(path):
    with wave.open(path) as w:
        assert w.getframerate() == 16000 and w.getnchannels() == 1 and w.getsampwidth() == 2, path
        return w.readframes(w.getnframes())


def wav_bytes(frames):
    import io
    b = io.BytesIO()
    with wave.open(b, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(frames)
    return b.getvalue()


MODEL = os.environ.get("ASR_MODEL", "moonshine-tiny")  # the server's model name, as --models gave it
# further form fields every request sends, "name=value,name=value" (none by default)
FIELDS = [tuple(f.split("=", 1)) for f in os.environ.get("ASR_FIELDS", "").split(",") if "=" in f]


def post(url, body):
    boundary = uuid.uuid4().hex
    data = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\n{MODEL}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"response_format\"\r\n\r\nverbose_json\r\n"
            + "".join(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n" for k, v in FIELDS)
            + f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"pair.wav\"\r\n"
            f"Content-Type: audio/wav\r\n\r\n").encode() + body + f"\r\n--{boundary}--\r\n".encode()
    req = urllib.request.Request(url + "/v1/audio/transcriptions", data=data,
                                 headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(req, timeout=600) as r:
        doc = json.loads(r.read())
    return doc["text"], sum(len(s.get("tokens", [])) for s in doc.get("segments", []))


def main(url, audio_dir, clients, rounds, out_dir, label):
    recs = sorted(glob.glob(os.path.join(audio_dir, "sense_*.wav"))) + sorted(glob.glob(os.path.join(audio_dir, "0*.wav")))
    gap = b"\0\0" * 12800
    pairs = [(a, b) for a in range(len(recs)) for b in range(len(recs)) if a != b][:clients]
    bodies = [wav_bytes(pcm(recs[a]) + gap + pcm(recs[b])) for a, b in pairs]
    seconds = [(len(b) - 44) / 32000 for b in bodies]
    post(url, bodies[0])  # compiles the encoder of that length: not what a latency figure should show
    alone, tokens, lat = [], [], []
    for b in bodies:
        t0 = time.perf_counter()
        text, n = post(url, b)
        lat.append(time.perf_counter() - t0)
        alone.append(text)
        tokens.append(n)
    wrong, errors = [], []

    def client(c, n):
        for _ in range(n):
            try:
                text, _ = post(url, bodies[c])
                if text != alone[c]:
                    wrong.append(c)
            except Exception as e:  # noqa: BLE001 - counted and reported
                errors.append(repr(e))

    def load(n):
        threads = [threading.Thread(target=client, args=(c, n)) for c in range(clients)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return time.perf_counter() - t0

    warm = int(os.environ.get("WARM", "0"))
    warm_wall = load(warm) if warm > 0 else 0.0
    os.makedirs(out_dir, exist_ok=True)
    try:  # the batch's figures so far (the single-stream pass, the warm rounds): the load's own are the difference with the end's
        with urllib.request.urlopen(url + "/metrics", timeout=10) as r, \
                open(os.path.join(out_dir, f"metrics-before-load-{label}.txt"), "w") as f:
            f.write("".join(l for l in r.read().decode().splitlines(True) if l.startswith("audioengine_batch")))
    except OSError as e:
        print(f"asr-load: no /metrics before the load ({e})", file=sys.stderr)
    wall = load(rounds)
    audio = sum(seconds) * rounds
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "pairs.json"), "w") as f:
        json.dump({"seconds": seconds, "tokens": tokens}, f)
    for i, b in enumerate(bodies):
        with open(os.path.join(out_dir, f"pair{i:02d}.wav"), "wb") as f:
            f.write(b)
    print(json.dumps({
        "label": label, "clients": clients, "warm_rounds": warm, "warm_wall_s": round(warm_wall, 2), "rounds": rounds, "requests": clients * rounds,
        "audio_s": round(audio, 1), "wall_s": round(wall, 2), "audio_s_per_s": round(audio / wall, 1),
        "single_stream_median_ms": round(1000 * statistics.median(lat), 1),
        "single_stream_audio_s_per_s": round(sum(seconds) / sum(lat), 1),
        "tokens_per_pass": sum(tokens), "cross_talk": len(wrong), "errors": len(errors),
        "first_error": errors[0] if errors else None}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6])
