package dev.audioengine.models.asr;

import dev.audioengine.model.task.SpeechEvent;
import dev.audioengine.model.task.VadStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A fake streaming VAD that reports scripted boundaries: each once the audio accepted reaches its report position,
 * the rest at {@link #finish}. Its probabilities agree with them as Silero's rules need: 0.9 for each chunk wholly
 * inside a scripted segment, 0.02 for the others.
 */
class ScriptedVadStream implements VadStream {
    /** A boundary and the number of samples after which it is reported. */
    record Scripted(SpeechEvent event, long reportAt) {}

    private final List<Scripted> script;
    private final List<long[]> speech = new ArrayList<>(); // scripted [start, end), end Long.MAX_VALUE when never ended
    private int next;
    private long chunks;
    long accepted;
    boolean closed;

    ScriptedVadStream(List<Scripted> script) {
        this.script = script;
        for (Scripted x : script) {
            if (x.event().kind() == SpeechEvent.Kind.START)
                speech.add(new long[] {x.event().sample(), Long.MAX_VALUE});
            else if (!speech.isEmpty()) speech.getLast()[1] = x.event().sample();
        }
    }

    static Scripted start(long sample, long reportAt) {
        return new Scripted(new SpeechEvent(SpeechEvent.Kind.START, sample, WindowDecoder.SAMPLE_RATE), reportAt);
    }

    static Scripted end(long sample, long reportAt) {
        return new Scripted(new SpeechEvent(SpeechEvent.Kind.END, sample, WindowDecoder.SAMPLE_RATE), reportAt);
    }

    @Override
    public int sampleRate() {
        return WindowDecoder.SAMPLE_RATE;
    }

    @Override
    public int chunkSize() {
        return ScriptedOfflineVad.CHUNK;
    }

    @Override
    public Result accept(float[] samples) {
        accepted += samples.length;
        List<SpeechEvent> out = new ArrayList<>();
        while (next < script.size() && script.get(next).reportAt() <= accepted)
            out.add(script.get(next++).event());
        float[] p = new float[(int) (accepted / chunkSize() - chunks)];
        for (int i = 0; i < p.length; i++, chunks++) p[i] = probability(chunks);
        return new Result(p, out);
    }

    /** The probability of chunk {@code chunk}: a fake that overrides it no longer agrees with its boundaries. */
    float probability(long chunk) {
        long from = chunk * chunkSize(), to = from + chunkSize();
        for (long[] s : speech) if (from >= s[0] && to <= s[1]) return 0.9f;
        return 0.02f;
    }

    @Override
    public Result finish() {
        List<SpeechEvent> out = new ArrayList<>();
        while (next < script.size()) out.add(script.get(next++).event());
        return new Result(new float[0], out);
    }

    @Override
    public void reset() {
        throw new UnsupportedOperationException(
                "a scripted stream plays its script once; the transcriber must not reset it");
    }

    @Override
    public void close() {
        closed = true;
    }
}
