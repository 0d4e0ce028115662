package dev.audioengine.spark;

import dev.audioengine.model.TaskModel;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.DoubleAccumulator;
import org.apache.spark.util.LongAccumulator;

/**
 * What the three tasks share: a DataFrame in, the same rows out with result columns added, each executor running its
 * partitions through the one model of its JVM ({@link ExecutorModels}). A row that fails (a missing or corrupt file)
 * gets its {@code error} column set and nulls in the results, and the job goes on; {@link #setFailOnError} makes it
 * fail the task instead, so Spark retries it and then fails the job.
 * <p>
 * Output is deterministic: a row's results depend only on the row and the settings, so a retried task writes what the
 * first attempt would have. The accumulators ({@link #audioSeconds()}, {@link #rowsDone()}, {@link #rowsFailed()})
 * show progress in Spark's UI; like every accumulator updated in a transformation, a retried task adds its rows
 * again, so they are a progress gauge, not an exact count.
 *
 * @param <T> the concrete transformer, returned by the setters
 */
public abstract class AudioTransformer<T extends AudioTransformer<T>> implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * A test's way to kill a task mid-partition: a Spark local property ({@code sc.setLocalProperty}) holding N makes
     * the first attempt of every task fail after it has handed out N rows; a retry runs through.
     */
    static final String FAIL_FIRST_ATTEMPT_AFTER_ROWS = "audioengine.test.failFirstAttemptAfterRows";

    private static final java.util.concurrent.atomic.AtomicInteger INJECTED =
            new java.util.concurrent.atomic.AtomicInteger();

    private EngineSettings settings = EngineSettings.DEFAULTS;
    private boolean failOnError;
    private int chunkRows = 16;
    private transient DoubleAccumulator audioSeconds;
    private transient LongAccumulator rowsDone;
    private transient LongAccumulator rowsFailed;

    AudioTransformer() {}

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    /**
     * @param s the model, backend, device and threads each executor opens
     * @return this transformer
     */
    public T setSettings(EngineSettings s) {
        this.settings = java.util.Objects.requireNonNull(s, "settings");
        return self();
    }

    /**
     * @return the settings in effect
     */
    public EngineSettings settings() {
        return settings;
    }

    /**
     * @param model a variant name or alias, a model path readable on every executor, or null for the task's default
     * @return this transformer
     */
    public T setModel(String model) {
        return setSettings(settings.withModel(model));
    }

    /**
     * @param backend cpu, cuda, hip, vulkan or best
     * @return this transformer
     */
    public T setBackend(String backend) {
        return setSettings(settings.withBackend(backend));
    }

    /**
     * @param failOnError true: a row that cannot be processed fails its task (and, after Spark's retries, the job);
     *     false (the default): it gets an {@code error} and the job goes on
     * @return this transformer
     */
    public T setFailOnError(boolean failOnError) {
        this.failOnError = failOnError;
        return self();
    }

    /**
     * @param rows how many rows of a partition are handed to the model at once (at least 1; 16 by default): the
     *     recognizer decodes up to its batch size of them together
     * @return this transformer
     * @throws IllegalArgumentException if {@code rows} is below 1
     */
    public T setChunkRows(int rows) {
        if (rows < 1) throw new IllegalArgumentException("chunk rows must be 1 or more, not " + rows);
        this.chunkRows = rows;
        return self();
    }

    /**
     * @return seconds of audio processed (read for recognition and detection, produced for synthesis) by the last
     *     {@link #transform}'s actions so far; null before the first transform
     */
    public DoubleAccumulator audioSeconds() {
        return audioSeconds;
    }

    /**
     * @return rows processed without error by the last {@link #transform}'s actions
     */
    public LongAccumulator rowsDone() {
        return rowsDone;
    }

    /**
     * @return rows that got an error (files failed) in the last {@link #transform}'s actions
     */
    public LongAccumulator rowsFailed() {
        return rowsFailed;
    }

    /**
     * The input with the result columns appended. Nothing runs until an action; each action runs the models again,
     * so cache or write the result rather than act on it twice.
     *
     * @param input the rows; the columns it needs are checked here
     * @return the rows with {@link #resultFields()} appended, in the input's partitioning
     * @throws IllegalArgumentException if a needed column is missing or of the wrong type, or a result column's name
     *     is taken
     */
    public Dataset<Row> transform(Dataset<Row> input) {
        StructType schema = input.schema();
        Columns columns = bind(schema);
        StructType out = schema;
        for (StructField f : resultFields()) {
            if (Arrays.asList(schema.fieldNames()).contains(f.name()))
                throw new IllegalArgumentException("the input already has a column '" + f.name()
                        + "', which this transformer adds; rename or drop it first");
            out = out.add(f);
        }
        var sc = input.sparkSession().sparkContext();
        String name = getClass().getSimpleName();
        DoubleAccumulator seconds = sc.doubleAccumulator("audioengine " + name + " audio seconds");
        LongAccumulator done = sc.longAccumulator("audioengine " + name + " rows done");
        LongAccumulator failed = sc.longAccumulator("audioengine " + name + " rows failed");
        this.audioSeconds = seconds;
        this.rowsDone = done;
        this.rowsFailed = failed;
        int width = schema.size();
        return input.mapPartitions(
                (MapPartitionsFunction<Row, Row>) rows -> partition(rows, columns, width, seconds, done, failed),
                Encoders.row(out));
    }

    /**
     * The columns this task reads, checked against the input's schema.
     *
     * @param schema the input's schema
     * @return their indices
     * @throws IllegalArgumentException if one is missing or of the wrong type
     */
    abstract Columns bind(StructType schema);

    /**
     * @return the result columns, appended in this order; the last is {@code error}
     */
    public abstract List<StructField> resultFields();

    /**
     * @return the task interface the model must implement
     */
    abstract Class<? extends TaskModel> modelType();

    /**
     * Runs one chunk of a partition's rows.
     *
     * @return one outcome per row, in order; a row's failure is its outcome, not an exception
     */
    abstract List<Outcome> process(ExecutorModels.Loaded model, List<Row> rows, Columns columns);

    /**
     * The indices of the columns a task reads: its input (audio bytes or text; -1 when absent) and the path.
     *
     * @param input the index of the content or text column, or -1
     * @param path the index of the path column, or -1
     */
    record Columns(int input, int path) implements Serializable {}

    /**
     * One row's result.
     *
     * @param values the result columns' values, {@code error} last
     * @param audioSeconds seconds of audio for the accumulator (0 on error)
     * @param error the error text, or null
     */
    record Outcome(Object[] values, double audioSeconds, String error) {}

    /** The outcome of a row that failed: nulls but the model, backend and error columns. */
    Outcome failed(ExecutorModels.Loaded model, String path, Throwable e) {
        String error = AudioInput.error(path, e);
        if (failOnError) throw new IllegalStateException(path + ": " + error, e);
        Object[] values = new Object[resultFields().size()];
        values[values.length - 3] = model.model().describe();
        values[values.length - 2] = model.backend();
        values[values.length - 1] = error;
        return new Outcome(values, 0, error);
    }

    /** How many tasks {@link #FAIL_FIRST_ATTEMPT_AFTER_ROWS} has killed in this JVM (tests check it did). */
    static int injectedFailures() {
        return INJECTED.get();
    }

    static Throwable unwrap(Throwable e) {
        while ((e instanceof java.util.concurrent.CompletionException
                        || e instanceof java.util.concurrent.ExecutionException
                        || e instanceof UncheckedIOException)
                && e.getCause() != null) e = e.getCause();
        return e;
    }

    /** An array column's value as Spark's row encoder takes it: a Scala sequence (a Java list is refused). */
    static scala.collection.Seq<Row> seq(List<Row> rows) {
        return scala.jdk.javaapi.CollectionConverters.asScala(rows);
    }

    static int index(StructType schema, String name) {
        return Arrays.asList(schema.fieldNames()).indexOf(name);
    }

    private Iterator<Row> partition(
            Iterator<Row> rows,
            Columns columns,
            int width,
            DoubleAccumulator seconds,
            LongAccumulator done,
            LongAccumulator failed) {
        TaskContext task = TaskContext.get();
        String injected = task == null ? null : task.getLocalProperty(FAIL_FIRST_ATTEMPT_AFTER_ROWS);
        int failAfter = injected != null && task.attemptNumber() == 0 ? Integer.parseInt(injected) : -1;
        return new Iterator<>() {
            private final ArrayDeque<Row> ready = new ArrayDeque<>();
            private ExecutorModels.Loaded model;
            private int handedOut;

            @Override
            public boolean hasNext() {
                while (ready.isEmpty() && rows.hasNext()) runChunk();
                return !ready.isEmpty();
            }

            @Override
            public Row next() {
                if (!hasNext()) throw new NoSuchElementException();
                if (handedOut == failAfter && INJECTED.incrementAndGet() > 0)
                    throw new IllegalStateException("injected failure after " + failAfter + " rows ("
                            + FAIL_FIRST_ATTEMPT_AFTER_ROWS + ", first attempt only)");
                handedOut++;
                return ready.poll();
            }

            private void runChunk() {
                List<Row> chunk = new ArrayList<>(chunkRows);
                while (chunk.size() < chunkRows && rows.hasNext()) chunk.add(rows.next());
                if (model == null) {
                    try {
                        model = ExecutorModels.get(settings, modelType());
                    } catch (IOException e) {
                        // a model that cannot be loaded is the job's problem, not a row's: fail loudly
                        throw new UncheckedIOException("cannot load the model " + settings + ": " + e.getMessage(), e);
                    }
                }
                List<Outcome> outcomes = process(model, chunk, columns);
                for (int i = 0; i < chunk.size(); i++) {
                    Row in = chunk.get(i);
                    Outcome o = outcomes.get(i);
                    Object[] values = new Object[width + o.values().length];
                    for (int c = 0; c < width; c++) values[c] = in.get(c);
                    System.arraycopy(o.values(), 0, values, width, o.values().length);
                    ready.add(RowFactory.create(values));
                    if (o.error() == null) {
                        done.add(1);
                        seconds.add(o.audioSeconds());
                    } else {
                        failed.add(1);
                    }
                }
            }
        };
    }
}
