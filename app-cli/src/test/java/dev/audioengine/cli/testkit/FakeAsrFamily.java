package dev.audioengine.cli.testkit;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.exec.RunSummary;
import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelFormatException;
import dev.audioengine.model.ModelLocation;
import dev.audioengine.model.ModelSource;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import dev.audioengine.model.TaskModel;
import dev.audioengine.model.output.WavWriter;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.AsrStream;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptEvent;
import dev.audioengine.model.task.TranscriptSegment;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * A speech recognition family for the CLI's tests, so the front end is tested without a real model. It "hears" speech
 * in every 20 ms chunk louder than 0.01 RMS; the n-th stretch of speech of an input says the script's n-th line. A
 * stretch is cut at {@link AsrOptions#maxWindowSeconds()}; while it lasts, the stream reports a partial every 0.5 s
 * with one more word of its line, and the offline forms report what the stream's finals would be.
 */
public final class FakeAsrFamily implements ModelFamily {
    public static final int RATE = 16000;
    private static final int CHUNK = RATE / 50;
    private static final int PARTIAL_EVERY_CHUNKS = 25;

    private final List<String> script;
    /** What the CLI asked for, for tests that check an option reached the model. */
    public volatile AsrOptions lastOptions;

    public final AtomicInteger loads = new AtomicInteger();

    public FakeAsrFamily(String... script) {
        this.script = List.of(script);
    }

    /** A registry holding this family alone. */
    public FamilyRegistry registry() {
        return FamilyRegistry.of(List.of(this));
    }

    /** A model file the family loads with --model PATH. */
    public static Path modelFile(Path dir) throws IOException {
        return Files.writeString(dir.resolve("fake.asr"), "fake-asr model\n");
    }

    /** A 16 kHz WAV: silence and tones, {@code seconds} alternating (silence first). */
    public static Path wav(Path file, double... seconds) throws IOException {
        int total = (int) Math.round(Arrays.stream(seconds).sum() * RATE);
        float[] x = new float[total];
        int at = 0;
        for (int i = 0; i < seconds.length; i++) {
            int n = (int) Math.round(seconds[i] * RATE);
            if (i % 2 == 1)
                for (int k = 0; k < n; k++) x[at + k] = (float) (0.3 * Math.sin(2 * Math.PI * 440 * k / RATE));
            at += n;
        }
        WavWriter.writeFloat(file, x, RATE);
        return file;
    }

    @Override
    public String name() {
        return "fake_asr";
    }

    @Override
    public String description() {
        return "scripted transcripts, for the CLI's tests";
    }

    @Override
    public Set<Task> tasks() {
        return Set.of(Task.ASR);
    }

    @Override
    public boolean isDefaultFor(Task task) {
        return task == Task.ASR;
    }

    @Override
    public Set<Capability> uses() {
        return Set.of();
    }

    @Override
    public List<ModelVariant> variants() {
        ModelFile file = new ModelFile(
                "fake.asr",
                "0".repeat(64),
                0,
                List.of(new ModelSource.Https(URI.create("https://example.org/fake.asr"))));
        return List.of(new ModelVariant("fake-asr", List.of(), Task.ASR, "scripted", List.of(file), "CC0-1.0"));
    }

    @Override
    public String validate(Path path) throws IOException {
        if (!Files.isRegularFile(path) || !Files.readString(path).startsWith("fake-asr"))
            throw new ModelFormatException(path + " is not a fake-asr file");
        return "fake-asr (scripted)";
    }

    @Override
    public TaskModel load(AudioEngine engine, ModelLocation location) throws IOException {
        validate(location.path());
        loads.incrementAndGet();
        return new Recognizer();
    }

    private final class Recognizer implements SpeechRecognizer {
        @Override
        public Task task() {
            return Task.ASR;
        }

        @Override
        public String describe() {
            return "fake-asr (scripted)";
        }

        @Override
        public java.util.Optional<RunSummary> runSummary() {
            return java.util.Optional.empty();
        }

        @Override
        public void close() {}

        @Override
        public int sampleRate() {
            return RATE;
        }

        @Override
        public Transcript transcribe(float[] samples, AsrOptions options) {
            List<TranscriptSegment> finals = new ArrayList<>();
            try (Stream s = new Stream(options)) {
                for (List<TranscriptEvent> events : List.of(s.accept(samples, 0, samples.length), s.finish())) {
                    for (TranscriptEvent e : events) if (e instanceof TranscriptEvent.Final f) finals.add(f.segment());
                }
            }
            lastOptions = options;
            if (options.wordTimestamps()) finals.replaceAll(FakeAsrFamily::withWords);
            return new Transcript(
                    finals,
                    samples.length / (double) RATE,
                    finals.stream().mapToLong(f -> f.tokens().size()).sum());
        }

        @Override
        public TranscriptSegment transcribeWindow(float[] samples, long startSample, AsrOptions options) {
            lastOptions = options;
            return segment(startSample, startSample + samples.length, 0, Integer.MAX_VALUE);
        }

        @Override
        public Transcript transcribe(AudioStream in, AsrOptions options, Consumer<TranscriptSegment> onSegment)
                throws IOException {
            if (in.sampleRate() != RATE) in = in.resampleTo(RATE);
            Transcript t = transcribe(in.readAll().samples(), options);
            t.segments().forEach(onSegment);
            return t;
        }

        @Override
        public AsrStream stream(AsrOptions options) {
            return new Stream(options);
        }
    }

    /**
     * Word timestamps as a scripted recognizer gives them: the segment's words spread evenly over it, each with its
     * leading space and probability 0.5, in "en".
     */
    static TranscriptSegment withWords(TranscriptSegment s) {
        String[] words = s.text().isEmpty() ? new String[0] : s.text().split(" ");
        List<dev.audioengine.model.task.TranscriptWord> timed = new ArrayList<>();
        double step = (s.endSeconds() - s.startSeconds()) / Math.max(1, words.length);
        for (int i = 0; i < words.length; i++)
            timed.add(new dev.audioengine.model.task.TranscriptWord(
                    " " + words[i], s.startSeconds() + i * step, s.startSeconds() + (i + 1) * step, 0.5));
        // as Whisper's: word timestamps come with a sampling decoder's statistics (an empty window's mean is -Infinity)
        return new TranscriptSegment(
                s.startSample(),
                s.endSample(),
                s.sampleRate(),
                s.text(),
                s.tokens(),
                timed,
                "en",
                new dev.audioengine.model.task.DecodingStats(
                        0.2, words.length == 0 ? Double.NEGATIVE_INFINITY : -0.5, 1.25, 0.03125));
    }

    /** The script's line {@code index}, its first {@code words} words. */
    private TranscriptSegment segment(long start, long end, int index, int words) {
        String line = script.isEmpty() ? "" : script.get(index % script.size());
        List<String> all = line.isBlank() ? List.of() : List.of(line.strip().split(" +"));
        List<String> said = all.subList(0, Math.min(words, all.size()));
        return new TranscriptSegment(
                start,
                end,
                RATE,
                String.join(" ", said),
                IntStream.range(0, said.size()).boxed().toList());
    }

    private final class Stream implements AsrStream {
        private final AsrOptions options;
        private final float[] chunk = new float[CHUNK];
        private int filled, index, partials;
        private long at, open = -1;

        Stream(AsrOptions options) {
            this.options = options;
            lastOptions = options;
        }

        @Override
        public List<TranscriptEvent> accept(float[] samples, int from, int length) {
            List<TranscriptEvent> events = new ArrayList<>();
            for (int i = from; i < from + length; i++) {
                chunk[filled++] = samples[i];
                if (filled == CHUNK) chunk(filled, events);
            }
            return events;
        }

        @Override
        public List<TranscriptEvent> finish() {
            List<TranscriptEvent> events = new ArrayList<>();
            if (filled > 0) chunk(filled, events);
            if (open >= 0) close(at, events);
            return events;
        }

        private void chunk(int n, List<TranscriptEvent> events) {
            double energy = 0;
            for (int i = 0; i < n; i++) energy += chunk[i] * chunk[i];
            boolean speech = Math.sqrt(energy / n) > 0.01;
            long start = at;
            at += n;
            filled = 0;
            if (!speech) {
                if (open >= 0) close(start, events);
                return;
            }
            if (open < 0) {
                open = start;
                partials = 0;
            }
            long chunks = (at - open) / CHUNK;
            if (chunks % PARTIAL_EVERY_CHUNKS == 0)
                events.add(new TranscriptEvent.Partial(segment(open, at, index, ++partials)));
            if (at - open >= Math.round(options.maxWindowSeconds() * RATE)) close(at, events);
        }

        private void close(long end, List<TranscriptEvent> events) {
            events.add(new TranscriptEvent.Final(segment(open, end, index++, Integer.MAX_VALUE)));
            open = -1;
        }

        @Override
        public void close() {}
    }
}
