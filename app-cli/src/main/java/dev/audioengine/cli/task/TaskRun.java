package dev.audioengine.cli.task;

import dev.audioengine.cli.ErrorReporter;
import dev.audioengine.cli.InputsFailed;
import dev.audioengine.model.TaskModel;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.store.PullListener;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a task's output goes: results on stdout, people's lines on stderr ("audioengine: ..."), progress on stderr only
 * when stderr is a terminal, and nothing but errors under --quiet.
 */
final class TaskRun {
    private static final System.Logger LOG = System.getLogger(TaskRun.class.getName());

    final PrintWriter out, err;
    final boolean json, quiet;
    private final boolean progressShown;
    private boolean progressLineOpen;
    private final List<Path> failed = new ArrayList<>();
    private long lastProgressNanos;

    /** The progress line is redrawn at most this often: decoders deliver blocks of a fraction of a second. */
    private static final long PROGRESS_EVERY_NANOS = 200_000_000L;

    TaskRun(PrintWriter out, PrintWriter err, boolean json, boolean quiet) {
        this.out = out;
        this.err = err;
        this.json = json;
        this.quiet = quiet;
        this.progressShown = !quiet && stderrIsTerminal();
    }

    /**
     * Whether a person watches stderr: the launcher says so (the JVM's own stderr is its filter's pipe there); an
     * embedding program's JVM falls back to the console test.
     */
    private static boolean stderrIsTerminal() {
        String told = System.getProperty("audioengine.stderr.terminal");
        if (told != null) return Boolean.parseBoolean(told);
        return System.console() != null && System.console().isTerminal();
    }

    /** A line for a person on stderr. */
    void note(String text) {
        if (quiet) return;
        endProgress();
        err.println("audioengine: " + text);
        err.flush();
    }

    /** Overwrites the progress line: percent, audio seconds done, real-time factor. Terminal only. */
    void progress(String what, double doneSeconds, double totalSeconds, double wallSeconds) {
        if (!progressShown) return;
        long now = System.nanoTime();
        if (progressLineOpen && now - lastProgressNanos < PROGRESS_EVERY_NANOS) return;
        lastProgressNanos = now;
        String pct = totalSeconds > 0 ? String.format(Locale.ROOT, "%3.0f%% ", 100 * doneSeconds / totalSeconds) : "";
        err.print(String.format(
                Locale.ROOT,
                "\r%s%s%.1f s of audio, %.0fx real time\u001b[K",
                pct,
                what.isEmpty() ? "" : what + ": ",
                doneSeconds,
                doneSeconds / Math.max(wallSeconds, 1e-9)));
        err.flush();
        progressLineOpen = true;
    }

    /**
     * Overwrites the progress line with text that may still change (a live transcript's partial). Terminal only. A
     * line wider than the terminal would wrap, and the next {@code \r} would return to its last row only: the tail is shown.
     */
    void live(String text) {
        if (!progressShown) return;
        String line = text.strip().replaceAll("\\s+", " ");
        int width = terminalColumns() - 1; // writing the last column makes some terminals wrap at once
        if (line.length() > width) line = "\u2026" + line.substring(line.length() - width + 1);
        err.print("\r" + line + "\u001b[K");
        err.flush();
        progressLineOpen = true;
    }

    /** The terminal's width where the shell exports it ($COLUMNS), else the usual 80. */
    private static int terminalColumns() {
        try {
            int c = Integer.parseInt(
                    // a resident process's job is told its client's $COLUMNS through the property
                    System.getProperty("audioengine.columns", System.getenv().getOrDefault("COLUMNS", "80"))
                            .strip());
            return c >= 20 ? c : 80;
        } catch (NumberFormatException e) {
            return 80;
        }
    }

    void endProgress() {
        if (progressLineOpen) {
            err.print("\r\u001b[K");
            err.flush();
            progressLineOpen = false;
        }
    }

    /**
     * Reports an input of several that failed (a file that cannot be decoded), on stderr even under --quiet, and
     * remembers it for {@link #failIfInputsFailed}; the message, named by the input, is returned for --json.
     */
    String inputFailed(Path input, Exception e) {
        endProgress();
        String name = AudioInputs.describe(input), m = ErrorReporter.message(e);
        if (!m.startsWith(name)) m = name + ": " + m;
        err.println("error: " + m);
        err.flush();
        LOG.log(System.Logger.Level.DEBUG, m, e);
        failed.add(input);
        return m;
    }

    /**
     * The --json record of an input that failed, {@code {audio, error}}: an element of {@code doc} (the array of a run
     * over several inputs), or with {@code doc} null under --json a line of its own; nothing without --json.
     */
    void failedInputJson(JsonWriter doc, Path input, String message) {
        JsonWriter w = doc != null ? doc : json ? new JsonWriter() : null;
        if (w == null) return;
        w.beginObject()
                .name("audio")
                .value(input.toString())
                .name("error")
                .value(message)
                .endObject();
        if (doc == null) out.println(w);
    }

    /** Ends a run of several inputs with exit status 1 when any of them failed. */
    void failIfInputsFailed(int inputs) {
        if (!failed.isEmpty()) throw new InputsFailed(failed, inputs);
    }

    /** Where the model's last graph ran, at the end of a task. */
    void runSummary(TaskModel model) {
        model.runSummary().ifPresent(s -> {
            // a CPU fallback changes speed and copies memory every run: say so without being asked
            if (!s.fallbackNodes().isEmpty()) note("run summary: " + s.describe());
            else LOG.log(System.Logger.Level.INFO, () -> "run summary: " + s.describe());
        });
    }

    /** Pull messages as notes; download progress on the progress line. */
    PullListener pullListener() {
        return new PullListener() {
            @Override
            public void message(String text) {
                note(text);
            }

            @Override
            public void progress(String file, long done, long total) {
                if (!progressShown) return;
                err.print(String.format(
                        Locale.ROOT,
                        "\r%s: %.1f of %s MB\u001b[K",
                        file,
                        done / 1e6,
                        total > 0 ? String.format(Locale.ROOT, "%.1f", total / 1e6) : "?"));
                err.flush();
                progressLineOpen = true;
            }
        };
    }
}
