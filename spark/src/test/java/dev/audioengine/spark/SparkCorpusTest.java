package dev.audioengine.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.Models;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.SparkException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark module in local mode over Debian's recordings (pocketsphinx-testdata, scripts/test-packages): one row per
 * file with the transcript the library gives that file alone, error rows for a corrupt file and a missing path, the
 * same output from a task killed mid-partition and retried, and one model load per executor JVM. One session for the
 * class: {@code local[2,3]}, two task slots and up to three attempts per task.
 */
class SparkCorpusTest {
    private static final Path DATA = Path.of("/usr/share/pocketsphinx/test/data");

    @TempDir
    static Path dir;

    private static SparkSession spark;
    private static List<Path> recordings;
    /** What the library's recognizer, loaded on its own here, says of each recording: the CLI's calls and options. */
    private static Map<String, String> expected;

    @BeforeAll
    static void start() throws Exception {
        try (Stream<Path> librivox = Files.list(DATA.resolve("librivox"));
                Stream<Path> cards = Files.list(DATA.resolve("cards"))) {
            recordings = Stream.concat(librivox, cards)
                    .filter(p -> p.toString().endsWith(".wav"))
                    .sorted()
                    .toList();
        }
        assertThat(recordings)
                .as("Debian's pocketsphinx-testdata (scripts/test-packages)")
                .hasSize(10);
        expected = new LinkedHashMap<>();
        try (AudioEngine engine = AudioEngine.builder().build();
                SpeechRecognizer asr = Models.load(engine, null, SpeechRecognizer.class)) {
            for (Path p : recordings)
                expected.put(
                        p.toString(), asr.transcribe(p, AsrOptions.DEFAULTS).text());
        }
        assertThat(expected.values()).allSatisfy(t -> assertThat(t).isNotBlank());
        spark = SparkSession.builder()
                .master("local[2,3]")
                .appName("SparkCorpusTest")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "4")
                .getOrCreate();
    }

    @AfterAll
    static void stop() {
        if (spark != null) spark.stop();
        ExecutorModels.closeAll();
    }

    /** A manifest of the ten recordings' paths plus a corrupt file and a missing path, in four partitions. */
    private static Dataset<Row> manifest() throws Exception {
        Path corrupt = dir.resolve("corrupt.wav");
        if (!Files.exists(corrupt)) Files.write(corrupt, "RIFF\0\0\0\0WAVEnot audio at all".getBytes());
        List<String> paths = new ArrayList<>();
        for (Path p : recordings) paths.add(p.toString());
        paths.add(corrupt.toString());
        paths.add(dir.resolve("missing.wav").toString());
        return spark.createDataset(paths, Encoders.STRING()).toDF("path").repartition(4);
    }

    private static Map<String, Row> byPath(List<Row> rows) {
        Map<String, Row> out = new LinkedHashMap<>();
        for (Row r : rows) {
            String path = r.getString(r.fieldIndex("path"));
            if (path.startsWith("file:")) path = path.substring("file:".length());
            assertThat(out.put(path, r)).as("one row for %s", path).isNull();
        }
        return out;
    }

    @Test
    void aManifestGivesOneRowPerFileWithTheLibrarysTextAndErrorRowsForBadFiles() throws Exception {
        AsrTransformer asr = new AsrTransformer();
        Map<String, Row> rows = byPath(asr.transform(manifest()).collectAsList());
        assertThat(rows).hasSize(12);
        for (Path p : recordings) {
            Row r = rows.get(p.toString());
            assertThat(r.<String>getAs("error")).as(p.toString()).isNull();
            assertThat(r.<String>getAs("text")).as(p.toString()).isEqualTo(expected.get(p.toString()));
            assertThat(r.<String>getAs("model")).isEqualTo("moonshine-tiny");
            assertThat(r.<String>getAs("backend")).isEqualTo("CPU");
            assertThat(r.<Double>getAs("audio_seconds")).isBetween(0.5, 30.0);
            List<Row> segments = r.getList(r.fieldIndex("segments"));
            assertThat(segments).isNotEmpty();
            assertThat(String.join(
                            " ", segments.stream().map(s -> s.getString(2)).toList()))
                    .isEqualTo(expected.get(p.toString()));
            for (Row s : segments) assertThat(s.getDouble(0)).isLessThan(s.getDouble(1));
        }
        Row corrupt = rows.get(dir.resolve("corrupt.wav").toString());
        assertThat(corrupt.<String>getAs("error")).isNotBlank();
        assertThat(corrupt.<String>getAs("text")).isNull();
        assertThat(corrupt.<String>getAs("model")).isEqualTo("moonshine-tiny");
        Row missing = rows.get(dir.resolve("missing.wav").toString());
        assertThat(missing.<String>getAs("error")).contains("no such file");
        assertThat(asr.rowsFailed().value()).isEqualTo(2);
        assertThat(asr.rowsDone().value()).isEqualTo(10);
        assertThat(asr.audioSeconds().value()).isBetween(30.0, 40.0); // 34.4 s in all
    }

    @Test
    void aFolderThroughTheJobGivesOneRowPerFile() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("folder"));
        for (Path p : recordings) Files.copy(p, folder.resolve(p.getParent().getFileName() + "-" + p.getFileName()));
        // a name a URI would escape: the job lists the folder itself and must write the path as the source does
        Files.move(folder.resolve("cards-001.wav"), folder.resolve("cards-0 01%.wav"));
        Path out = dir.resolve("out.parquet.d");
        CorpusJob.Summary summary = CorpusJob.run(spark, CorpusJob.parse(new String[] {
            folder.toString(), out.toString(), "--format", "parquet", "--mode", "overwrite"
        }));
        assertThat(summary.done()).isEqualTo(10);
        assertThat(summary.failed()).isZero();
        List<Row> rows = spark.read().parquet(out.toString()).collectAsList();
        assertThat(rows).hasSize(10);
        assertThat(rows.stream().map(r -> r.<String>getAs("path")).sorted().toList())
                .as("the paths binaryFile gives")
                .isEqualTo(
                        spark
                                .read()
                                .format("binaryFile")
                                .load(folder.toString())
                                .select("path")
                                .collectAsList()
                                .stream()
                                .map(r -> r.getString(0))
                                .sorted()
                                .toList());
        for (Row r : rows) {
            String name =
                    Path.of(r.<String>getAs("path")).getFileName().toString().replace("0 01%", "001");
            Path original =
                    DATA.resolve(name.substring(0, name.indexOf('-'))).resolve(name.substring(name.indexOf('-') + 1));
            assertThat(r.<String>getAs("text")).as(name).isEqualTo(expected.get(original.toString()));
            assertThat(r.<String>getAs("error")).isNull();
        }
        assertThat(spark.read().parquet(out.toString()).columns()).doesNotContain("content");
    }

    @Test
    void binaryFileContentIsDecodedFromTheBytes() {
        Dataset<Row> files = spark.read().format("binaryFile").load(DATA.resolve("cards") + "/*.wav");
        Map<String, Row> rows = byPath(new AsrTransformer().transform(files).collectAsList());
        assertThat(rows).hasSize(5);
        rows.forEach((path, r) -> assertThat(r.<String>getAs("text")).as(path).isEqualTo(expected.get(path)));
    }

    @Test
    void aTaskKilledMidPartitionAndRetriedGivesTheSameOutput() throws Exception {
        List<Row> clean = new AsrTransformer().transform(manifest()).collectAsList();
        int before = AudioTransformer.injectedFailures();
        spark.sparkContext().setLocalProperty(AudioTransformer.FAIL_FIRST_ATTEMPT_AFTER_ROWS, "1");
        List<Row> retried;
        try {
            retried = new AsrTransformer().transform(manifest()).collectAsList();
        } finally {
            spark.sparkContext().setLocalProperty(AudioTransformer.FAIL_FIRST_ATTEMPT_AFTER_ROWS, null);
        }
        assertThat(AudioTransformer.injectedFailures() - before)
                .as("tasks killed after their first row")
                .isGreaterThanOrEqualTo(1);
        assertThat(byPath(retried).toString()).isEqualTo(byPath(clean).toString());
    }

    @Test
    void theModelIsLoadedOncePerExecutor() throws Exception {
        // settings no other test uses, so this test's loads are its own whatever ran before
        AsrTransformer asr = new AsrTransformer()
                .setSettings(EngineSettings.DEFAULTS.withThreads(2))
                .setChunkRows(2);
        int before = ExecutorModels.loads();
        asr.transform(manifest().repartition(6)).collectAsList();
        asr.transform(manifest().repartition(3)).collectAsList();
        assertThat(ExecutorModels.loads() - before)
                .as("loads for 2 jobs of 12 rows in 9 tasks")
                .isEqualTo(1);
    }

    /**
     * A local-mode job's preload (CorpusJob starts it before Spark) loads the very model its tasks ask for: threads
     * left to Spark resolve to spark.task.cpus as a task resolves them, so the tasks find it loaded and load nothing.
     */
    @Test
    void aPreloadedModelIsTheOneTheTasksUse() throws Exception {
        // settings no other test uses (the model cache given explicitly), threads left to Spark: 1 task cpu
        EngineSettings settings = EngineSettings.DEFAULTS.withModelCache(
                dev.audioengine.model.store.ModelStore.userCache().directory().toString());
        int before = ExecutorModels.loads();
        ExecutorModels.preloadInBackground(settings, SpeechRecognizer.class, 1).join();
        assertThat(ExecutorModels.loads() - before).as("the preload's load").isEqualTo(1);
        AsrTransformer asr = new AsrTransformer().setSettings(settings).setChunkRows(2);
        List<Row> rows = asr.transform(manifest().repartition(4)).collectAsList();
        assertThat(rows).isNotEmpty();
        assertThat(ExecutorModels.loads() - before)
                .as("loads after the preload and a job of 4 tasks")
                .isEqualTo(1);
    }

    @Test
    void failOnErrorFailsTheJob() {
        AsrTransformer asr = new AsrTransformer().setFailOnError(true);
        assertThatThrownBy(() -> asr.transform(manifest()).collectAsList())
                .isInstanceOf(SparkException.class)
                .hasMessageMatching("(?s).*(corrupt|missing)\\.wav.*");
    }

    @Test
    void vadGivesTheLibrarysSegments() throws Exception {
        List<Row> rows = new VadTransformer().transform(manifest()).collectAsList();
        Map<String, Row> byPath = byPath(rows);
        try (AudioEngine engine = AudioEngine.builder().build();
                VoiceActivityDetector vad = Models.load(engine, null, VoiceActivityDetector.class)) {
            for (Path p : recordings) {
                List<SpeechSegment> want = vad.segments(p, VadOptions.DEFAULTS);
                List<Row> got = byPath.get(p.toString())
                        .getList(byPath.get(p.toString()).fieldIndex("segments"));
                assertThat(got).as(p.toString()).hasSize(want.size()).isNotEmpty();
                for (int i = 0; i < want.size(); i++) {
                    assertThat(got.get(i).getDouble(0)).isEqualTo(want.get(i).startSeconds());
                    assertThat(got.get(i).getDouble(1)).isEqualTo(want.get(i).endSeconds());
                }
            }
        }
        assertThat(byPath.get(dir.resolve("missing.wav").toString()).<String>getAs("error"))
                .contains("no such file");
    }

    @Test
    void ttsGivesWavBytesPerText() {
        Dataset<Row> texts = spark.createDataset(java.util.Arrays.asList("Ten of clubs.", null), Encoders.STRING())
                .toDF("text");
        List<Row> rows = new TtsTransformer().transform(texts).collectAsList();
        rows = new ArrayList<>(rows);
        rows.sort(Comparator.comparing(r -> r.isNullAt(0) ? 1 : 0));
        Row said = rows.get(0);
        assertThat(said.<String>getAs("error")).isNull();
        byte[] wav = said.getAs("audio");
        ByteBuffer b = ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(new String(wav, 0, 4)).isEqualTo("RIFF");
        assertThat(new String(wav, 8, 4)).isEqualTo("WAVE");
        assertThat(b.getInt(24)).isEqualTo(said.<Integer>getAs("sample_rate"));
        assertThat(said.<Double>getAs("audio_seconds")).isBetween(0.3, 5.0);
        assertThat(rows.get(1).<String>getAs("error")).isEqualTo("IllegalArgumentException: the row has no text");
    }
}
