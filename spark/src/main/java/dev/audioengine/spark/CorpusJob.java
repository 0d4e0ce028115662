package dev.audioengine.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The {@code spark-submit} entry point: one task over a corpus, written as Parquet or JSON Lines.
 * <pre>
 * spark-submit --class dev.audioengine.spark.CorpusJob audioengine-spark.jar INPUT OUTPUT [options]
 *
 *   INPUT    asr, vad: a folder or a glob of audio files (read by the executors themselves, file by file), or a
 *            manifest: a .parquet, .json/.jsonl (a "path" column of paths or URIs) or .txt (one path a line) file.
 *            tts: a .parquet or .json/.jsonl file with a "text" column, or a .txt file, one text a line
 *   OUTPUT   a folder Spark writes its part files into
 *   --task asr|vad|tts          default asr
 *   --model NAME|PATH           a variant name or a model path on every node; default: the task's default model
 *   --backend cpu|cuda|hip|vulkan|best   default cpu
 *   --device N                  the backend's device; default: the GPU Spark assigned to the task, else 0
 *   --threads N                 engine CPU threads per task; default 0: spark.task.cpus (1 unless set)
 *   --max-batch N               asr: recordings decoded together; default 1 on the CPU, 64 on a GPU
 *   --model-cache DIR           the model cache on every node; default the executor user's ~/.cache/audioengine
 *   --format parquet|jsonl      default parquet
 *   --mode overwrite|append|error   what to do when OUTPUT exists; default error (refuse)
 *   --partitions N              default: 4 per core of the application (spark.default.parallelism x 4)
 *   --fail-on-error             a file that cannot be processed fails the job instead of getting an error row
 *   --master URL                only when spark-submit gave none (scripts/spark-local passes local[N])
 * </pre>
 * Exit status: 0 when the job ran (rows that failed carry their error and are counted on stderr), 2 for a usage
 * error; Spark's own status when the job fails.
 */
public final class CorpusJob {
    private CorpusJob() {}

    /** The parsed command line. */
    record Args(
            String input,
            String output,
            String task,
            EngineSettings settings,
            String format,
            SaveMode mode,
            int partitions,
            boolean failOnError,
            String master) {}

    /**
     * Runs the job and stops the session.
     *
     * @param argv the command line (see the class comment)
     */
    public static void main(String[] argv) {
        Args args;
        try {
            args = parse(argv);
        } catch (IllegalArgumentException e) {
            System.err.println("audioengine-spark: " + e.getMessage());
            System.err.println("usage: CorpusJob INPUT OUTPUT [--task asr|vad|tts] [--model NAME] [--backend B]"
                    + " [--device N] [--threads N] [--max-batch N] [--model-cache DIR] [--format parquet|jsonl]"
                    + " [--mode overwrite|append|error] [--partitions N] [--fail-on-error] [--master URL]");
            System.exit(2);
            return;
        }
        // local mode: the driver is the executor, so its model can load and warm up while Spark starts
        // (AUDIOENGINE_SPARK_PRELOAD=0 leaves it to the first task)
        String master = args.master() != null ? args.master() : System.getProperty("spark.master", "");
        Integer taskCpus = taskCpus(System.getProperty("spark.task.cpus", "1"));
        // a spark.task.cpus that is not a number: no preload, and Spark's own start says what is wrong with it
        if (master.startsWith("local") && taskCpus != null && !"0".equals(System.getenv("AUDIOENGINE_SPARK_PRELOAD")))
            ExecutorModels.preloadInBackground(
                    args.settings(), transformer(args.task()).modelType(), taskCpus);
        SparkSession.Builder builder =
                SparkSession.builder().appName("audioengine " + args.task() + " " + args.input());
        if (args.master() != null) builder.master(args.master());
        SparkSession spark = builder.getOrCreate();
        try {
            long t0 = System.nanoTime();
            Summary s = run(spark, args);
            System.err.printf(
                    Locale.ROOT,
                    "audioengine-spark: %s: %d rows, %d failed, %.1f s of audio in %.1f s wall, written to %s (%s)%n",
                    args.task(),
                    s.done() + s.failed(),
                    s.failed(),
                    s.audioSeconds(),
                    (System.nanoTime() - t0) / 1e9,
                    args.output(),
                    args.format());
        } finally {
            spark.stop();
        }
    }

    /**
     * What a run did, from its accumulators.
     *
     * @param done rows without error
     * @param failed rows with an error
     * @param audioSeconds seconds of audio read or produced
     */
    record Summary(long done, long failed, double audioSeconds) {}

    /** Reads, transforms and writes; the session stays open. */
    static Summary run(SparkSession spark, Args args) {
        AudioTransformer<?> transformer = transformer(args.task());
        transformer.setSettings(args.settings()).setFailOnError(args.failOnError());
        String key = args.task().equals("tts") ? "text" : "path";
        int partitions =
                args.partitions() > 0 ? args.partitions() : spark.sparkContext().defaultParallelism() * 4;
        // ranges of the sorted key: the same rows in the same partition on every run and retry, and small partitions
        // so that executors finishing early take more (the model is loaded once per JVM, not per partition)
        Dataset<Row> input = isListing(args)
                ? listed(spark, args.input(), partitions)
                : read(spark, args).repartitionByRange(partitions, functions.col(key));
        Dataset<Row> out = transformer.transform(input);
        if (Arrays.asList(out.columns()).contains("content")) out = out.drop("content");
        var writer = out.write().mode(args.mode());
        if (args.format().equals("parquet")) writer.parquet(args.output());
        else writer.option("ignoreNullFields", false).json(args.output()); // error: null on rows that went well
        return new Summary(
                transformer.rowsDone().value(),
                transformer.rowsFailed().value(),
                transformer.audioSeconds().value());
    }

    /** spark.task.cpus as a number, or null when it is none. */
    static Integer taskCpus(String value) {
        try {
            return Integer.valueOf(value.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The transformer of a task (asr, vad, tts). */
    static AudioTransformer<?> transformer(String task) {
        return switch (task) {
            case "asr" -> new AsrTransformer();
            case "vad" -> new VadTransformer();
            case "tts" -> new TtsTransformer();
            default -> throw new IllegalArgumentException("--task " + task);
        };
    }

    /** Whether the input is a folder or glob of audio files rather than a manifest. */
    static boolean isListing(Args args) {
        String lower = args.input().toLowerCase(Locale.ROOT);
        return !args.task().equals("tts")
                && !lower.endsWith(".parquet")
                && !lower.endsWith(".json")
                && !lower.endsWith(".jsonl")
                && !lower.endsWith(".txt");
    }

    /**
     * A folder or glob as rows of paths, in {@code partitions} ranges of the sorted paths. Spark lists it on the
     * driver (the {@code binaryFile} source's listing and rules: its glob, its hidden files left out, its path
     * strings), as it would for the source itself; cutting the sorted list here gives the same deterministic ranges
     * as {@code repartitionByRange} without the job that samples the keys and the shuffle that moves them: part of
     * Spark's fixed cost in a local run (docs/PERFORMANCE.md, "Spark local mode against one CLI process"). The driver
     * holds the listing either way; the paths travel in the tasks.
     */
    static Dataset<Row> listed(SparkSession spark, String in, int partitions) {
        String[] uris = spark.read().format("binaryFile").load(in).inputFiles();
        // inputFiles gives URIs (file:///a%20b.wav); the source's path column, Hadoop's Path.toString (file:/a b.wav)
        String[] files = new String[uris.length];
        for (int i = 0; i < uris.length; i++)
            files[i] = new org.apache.hadoop.fs.Path(java.net.URI.create(uris[i])).toString();
        Arrays.sort(files);
        List<Row> rows = new ArrayList<>(files.length);
        for (String f : files) rows.add(RowFactory.create(f));
        StructType schema = new StructType().add("path", DataTypes.StringType, false);
        // parallelize cuts a list into contiguous slices by position: ranges of the sorted paths
        var rdd = JavaSparkContext.fromSparkContext(spark.sparkContext())
                .parallelize(rows, Math.max(1, Math.min(partitions, files.length)));
        return spark.createDataFrame(rdd, schema);
    }

    /** The input as rows with a path column (audio) or a text column (tts). */
    static Dataset<Row> read(SparkSession spark, Args args) {
        String in = args.input();
        String lower = in.toLowerCase(Locale.ROOT);
        boolean tts = args.task().equals("tts");
        String key = tts ? "text" : "path";
        Dataset<Row> rows;
        if (lower.endsWith(".parquet")) rows = spark.read().parquet(in);
        else if (lower.endsWith(".json") || lower.endsWith(".jsonl"))
            rows = spark.read().json(in);
        else if (lower.endsWith(".txt"))
            rows = spark.read()
                    .text(in)
                    .withColumnRenamed("value", key)
                    .filter(functions.length(functions.col(key)).gt(0));
        else if (tts)
            throw new IllegalArgumentException(
                    "--task tts reads a .parquet, .json/.jsonl or .txt file of texts, not " + in);
        else {
            // only the paths: Spark then lists the files without reading them, and each executor streams its own
            return spark.read().format("binaryFile").load(in).select("path");
        }
        if (!Arrays.asList(rows.columns()).contains(key))
            throw new IllegalArgumentException(
                    in + " has no '" + key + "' column; it has " + String.join(", ", rows.columns()));
        return rows;
    }

    static Args parse(String[] argv) {
        List<String> positional = new ArrayList<>();
        String task = "asr", format = "parquet", master = null;
        SaveMode mode = SaveMode.ErrorIfExists;
        EngineSettings settings = EngineSettings.DEFAULTS;
        int partitions = 0;
        boolean failOnError = false;
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("--")) {
                positional.add(a);
                continue;
            }
            if (a.equals("--fail-on-error")) {
                failOnError = true;
                continue;
            }
            if (i + 1 >= argv.length) throw new IllegalArgumentException(a + " needs a value");
            String v = argv[++i];
            switch (a) {
                case "--task" -> {
                    if (!List.of("asr", "vad", "tts").contains(v))
                        throw new IllegalArgumentException("--task is asr, vad or tts, not " + v);
                    task = v;
                }
                case "--model" -> settings = settings.withModel(v);
                case "--backend" -> settings = settings.withBackend(v);
                case "--device" -> settings = settings.withDevice(number(a, v));
                case "--threads" -> settings = settings.withThreads(number(a, v));
                case "--max-batch" -> settings = settings.withMaxBatch(number(a, v));
                case "--model-cache" -> settings = settings.withModelCache(v);
                case "--format" -> {
                    if (!List.of("parquet", "jsonl").contains(v))
                        throw new IllegalArgumentException("--format is parquet or jsonl, not " + v);
                    format = v;
                }
                case "--mode" ->
                    mode = switch (v) {
                        case "overwrite" -> SaveMode.Overwrite;
                        case "append" -> SaveMode.Append;
                        case "error" -> SaveMode.ErrorIfExists;
                        default -> throw new IllegalArgumentException("--mode is overwrite, append or error, not " + v);
                    };
                case "--partitions" -> partitions = number(a, v);
                case "--master" -> master = v;
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (positional.size() != 2)
            throw new IllegalArgumentException("give INPUT and OUTPUT, got " + positional.size() + " arguments");
        return new Args(
                positional.get(0), positional.get(1), task, settings, format, mode, partitions, failOnError, master);
    }

    private static int number(String option, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n < 0) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a whole number 0 or more, not " + value);
        }
    }
}
