package dev.audioengine.model.output;

import dev.audioengine.model.task.NoteEvent;
import dev.audioengine.model.task.NoteOptions;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Notes as JSON, CSV and a Standard MIDI File: one definition for the CLI's {@code --task notes} outputs (and any
 * other front end), so that all of them name, round and order the fields alike.
 */
public final class NoteOutput {
    /** Ticks per quarter note of the MIDI files written (@tonejs/midi's default, which Basic Pitch's package uses). */
    public static final int TICKS_PER_BEAT = 480;
    /** The tempo written, in beats per minute: note times in seconds map to ticks at this tempo. */
    public static final int TEMPO_BPM = 120;
    /** Pitch-bend range the MIDI bends assume, in semitones each way (General MIDI's default). */
    public static final int BEND_RANGE_SEMITONES = 2;

    private NoteOutput() {}

    /**
     * The notes sorted by start time, then pitch: the order every output writes them in.
     *
     * @param notes notes in any order; not modified
     * @return a new sorted list
     */
    public static List<NoteEvent> sorted(List<NoteEvent> notes) {
        List<NoteEvent> s = new ArrayList<>(notes);
        s.sort(Comparator.comparingDouble(NoteEvent::startSeconds)
                .thenComparingInt(NoteEvent::pitch)
                .thenComparingDouble(NoteEvent::endSeconds));
        return s;
    }

    /**
     * Writes the settings and notes of one input into the object open in {@code w}: {@code onset_threshold},
     * {@code frame_threshold}, {@code min_note_frames}, {@code melodia_trick}, and {@code notes}, an array of objects
     * with {@code start} and {@code end} (seconds, rounded to 1e-4), {@code pitch} (MIDI), {@code velocity} (MIDI,
     * 1..127), {@code amplitude} (rounded to 1e-6) and, when bends were asked for, {@code pitch_bends} (contour bins
     * per frame), sorted by {@link #sorted}.
     *
     * @param w       a writer with an object open
     * @param options the options the notes were decoded with
     * @param notes   the notes
     */
    public static void json(JsonWriter w, NoteOptions options, List<NoteEvent> notes) {
        w.name("onset_threshold")
                .number(options.onsetThreshold())
                .name("frame_threshold")
                .number(options.frameThreshold())
                .name("min_note_frames")
                .value(options.minNoteFrames())
                .name("melodia_trick")
                .value(options.melodiaTrick())
                .name("notes")
                .beginArray();
        for (NoteEvent n : sorted(notes)) {
            w.beginObject()
                    .name("start")
                    .number(Math.round(n.startSeconds() * 1e4) / 1e4)
                    .name("end")
                    .number(Math.round(n.endSeconds() * 1e4) / 1e4)
                    .name("pitch")
                    .value(n.pitch())
                    .name("velocity")
                    .value(n.velocity())
                    .name("amplitude")
                    .number(Math.round(n.amplitude() * 1e6) / 1e6);
            if (n.pitchBends() != null) {
                w.name("pitch_bends").beginArray();
                for (int b : n.pitchBends()) w.value(b);
                w.endArray();
            }
            w.endObject();
        }
        w.endArray();
    }

    /**
     * The notes as CSV: a header line {@code start,end,pitch,velocity,amplitude} and one line per note (seconds with
     * 4 decimals), sorted by {@link #sorted}; lines end with {@code \n}.
     *
     * @param notes the notes
     * @return the CSV text
     */
    public static String csv(List<NoteEvent> notes) {
        StringBuilder s = new StringBuilder("start,end,pitch,velocity,amplitude\n");
        for (NoteEvent n : sorted(notes))
            s.append(String.format(
                    Locale.ROOT,
                    "%.4f,%.4f,%d,%d,%.6f%n".replace("%n", "\n"),
                    n.startSeconds(),
                    n.endSeconds(),
                    n.pitch(),
                    n.velocity(),
                    n.amplitude()));
        return s.toString();
    }

    /** Ticks of a time in seconds at {@link #TEMPO_BPM} and {@link #TICKS_PER_BEAT} (rounded as @tonejs/midi does). */
    static long ticks(double seconds) {
        return Math.round(seconds * TEMPO_BPM / 60.0 * TICKS_PER_BEAT);
    }

    /**
     * The notes as a Standard MIDI File, format 1 as Basic Pitch's package writes it: a first track with the tempo
     * ({@value #TEMPO_BPM} bpm, stated explicitly) and a second with the notes on channel 0, program 0 (piano);
     * {@value #TICKS_PER_BEAT} ticks per beat; velocity {@link NoteEvent#velocity()}; a note that ends where another
     * of the same pitch starts is released first. Pitch bends, where the notes carry them, are written on the same
     * channel at each of a note's frames ({@code 8192 + 4096 · bins / 3}, for a bend range of
     * {@value #BEND_RANGE_SEMITONES} semitones), and reset to centre at the note's end.
     *
     * @param notes the notes; a note of zero ticks is written one tick long
     * @return the file's bytes
     */
    public static byte[] midi(List<NoteEvent> notes) {
        record Ev(long tick, int order, byte[] bytes) {}
        List<Ev> evs = new ArrayList<>();
        for (NoteEvent n : sorted(notes)) {
            long on = ticks(n.startSeconds()), off = Math.max(on + 1, ticks(n.endSeconds()));
            // at one tick: note-offs, then bends, then note-ons
            evs.add(new Ev(on, 2, new byte[] {(byte) 0x90, (byte) n.pitch(), (byte) n.velocity()}));
            evs.add(new Ev(off, 0, new byte[] {(byte) 0x80, (byte) n.pitch(), 0}));
            int[] bends = n.pitchBends();
            if (bends != null && bends.length > 0) {
                for (int i = 0; i < bends.length; i++) {
                    long t = ticks(n.startSeconds() + i * n.durationSeconds() / bends.length);
                    int v = Math.clamp(8192 + Math.round(4096f * bends[i] / 3f), 0, 16383);
                    evs.add(new Ev(t, 1, new byte[] {(byte) 0xE0, (byte) (v & 0x7F), (byte) (v >> 7)}));
                }
                evs.add(new Ev(off, 1, new byte[] {(byte) 0xE0, 0, 64}));
            }
        }
        evs.sort(Comparator.comparingLong(Ev::tick).thenComparingInt(Ev::order));

        ByteArrayOutputStream tempo = new ByteArrayOutputStream();
        int usPerBeat = 60_000_000 / TEMPO_BPM;
        tempo.writeBytes(
                new byte[] {0, (byte) 0xFF, 0x51, 3, (byte) (usPerBeat >> 16), (byte) (usPerBeat >> 8), (byte) usPerBeat
                });
        tempo.writeBytes(new byte[] {0, (byte) 0xFF, 0x2F, 0});

        ByteArrayOutputStream track = new ByteArrayOutputStream();
        track.writeBytes(new byte[] {0, (byte) 0xC0, 0}); // program change: acoustic grand piano
        long last = 0;
        for (Ev e : evs) {
            varLen(track, e.tick - last);
            last = e.tick;
            track.writeBytes(e.bytes);
        }
        track.writeBytes(new byte[] {0, (byte) 0xFF, 0x2F, 0});

        ByteArrayOutputStream f = new ByteArrayOutputStream();
        f.writeBytes(new byte[] {
            'M', 'T', 'h', 'd', 0, 0, 0, 6, 0, 1, 0, 2, (byte) (TICKS_PER_BEAT >> 8), (byte) TICKS_PER_BEAT
        });
        chunk(f, tempo.toByteArray());
        chunk(f, track.toByteArray());
        return f.toByteArray();
    }

    private static void chunk(ByteArrayOutputStream f, byte[] body) {
        f.writeBytes(new byte[] {'M', 'T', 'r', 'k'});
        int n = body.length;
        f.writeBytes(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
        f.writeBytes(body);
    }

    /** MIDI's variable-length quantity: 7 bits a byte, most significant first, the high bit set on all but the last. */
    private static void varLen(ByteArrayOutputStream out, long v) {
        if (v < 0 || v > 0x0FFFFFFF) throw new IllegalArgumentException("MIDI delta time " + v + " out of range");
        int shift = 21;
        while (shift > 0 && (v >>> shift) == 0) shift -= 7;
        for (; shift > 0; shift -= 7) out.write((int) (0x80 | ((v >>> shift) & 0x7F)));
        out.write((int) (v & 0x7F));
    }
}
