package dev.audioengine.spark;

import dev.audioengine.model.TaskModel;
import dev.audioengine.model.task.AsrOptions;
import dev.audioengine.model.task.SpeechRecognizer;
import dev.audioengine.model.task.Transcript;
import dev.audioengine.model.task.TranscriptSegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Speech recognition ({@code --task asr}) over a DataFrame of recordings: adds {@code text}, {@code segments}
 * (start and end in seconds, text), {@code language}, {@code audio_seconds}, {@code model}, {@code backend} and
 * {@code error}. A row's transcript is the one {@code audioengine --task asr} prints for that file: the same recognizer
 * calls with the CLI's defaults ({@link AsrOptions#DEFAULTS}). The rows of a chunk go through
 * {@link SpeechRecognizer#transcribeEach}, the recognizer's batched API, which on a GPU decodes their windows together.
 * <pre>{@code
 * Dataset<Row> audio = spark.read().format("binaryFile").load("corpus/*.wav").select("path");
 * Dataset<Row> text = new AsrTransformer().setModel("moonshine-base").transform(audio);
 * }</pre>
 */
public final class AsrTransformer extends AudioRowsTransformer<AsrTransformer> {
    private static final long serialVersionUID = 1L;

    /** One segment: where its window starts and ends in the recording, in seconds, and its text. */
    public static final StructType SEGMENT = new StructType()
            .add("start", DataTypes.DoubleType, false)
            .add("end", DataTypes.DoubleType, false)
            .add("text", DataTypes.StringType, false);

    private static final List<StructField> FIELDS = List.of(
            DataTypes.createStructField("text", DataTypes.StringType, true),
            DataTypes.createStructField("segments", DataTypes.createArrayType(SEGMENT, false), true),
            DataTypes.createStructField("language", DataTypes.StringType, true),
            DataTypes.createStructField("audio_seconds", DataTypes.DoubleType, true),
            DataTypes.createStructField("model", DataTypes.StringType, true),
            DataTypes.createStructField("backend", DataTypes.StringType, true),
            DataTypes.createStructField("error", DataTypes.StringType, true));

    // the options' records are not Serializable: the two a corpus job tunes travel as numbers
    private Double maxWindowSeconds;
    private Double mergeGapSeconds;

    /** A transformer with the default recognizer on the CPU, the CLI's options. */
    public AsrTransformer() {}

    /**
     * @param seconds the longest window decoded at once ({@code --max-window-s}); checked by {@link AsrOptions}
     * @return this transformer
     * @throws IllegalArgumentException if out of {@link AsrOptions}'s range
     */
    public AsrTransformer setMaxWindowSeconds(double seconds) {
        AsrOptions.DEFAULTS.withMaxWindowSeconds(seconds);
        this.maxWindowSeconds = seconds;
        return this;
    }

    /**
     * @param seconds pauses shorter than this join speech into one window ({@code --merge-gap-s})
     * @return this transformer
     * @throws IllegalArgumentException if out of {@link AsrOptions}'s range
     */
    public AsrTransformer setMergeGapSeconds(double seconds) {
        AsrOptions.DEFAULTS.withMergeGapSeconds(seconds);
        this.mergeGapSeconds = seconds;
        return this;
    }

    /** The CLI's options with what was set here. */
    AsrOptions options() {
        AsrOptions o = AsrOptions.DEFAULTS;
        if (maxWindowSeconds != null) o = o.withMaxWindowSeconds(maxWindowSeconds);
        if (mergeGapSeconds != null) o = o.withMergeGapSeconds(mergeGapSeconds);
        return o;
    }

    @Override
    public List<StructField> resultFields() {
        return FIELDS;
    }

    @Override
    Class<? extends TaskModel> modelType() {
        return SpeechRecognizer.class;
    }

    @Override
    List<Outcome> process(ExecutorModels.Loaded model, List<Row> rows, Columns columns) {
        SpeechRecognizer asr = (SpeechRecognizer) model.model();
        List<SpeechRecognizer.AudioSource> sources = new ArrayList<>();
        for (Row row : rows) sources.add(() -> open(row, columns));
        List<CompletableFuture<Transcript>> transcripts = asr.transcribeEach(sources, options());
        List<Outcome> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Transcript t;
            try {
                t = transcripts.get(i).join();
            } catch (RuntimeException e) {
                out.add(failed(model, path(rows.get(i), columns), unwrap(e)));
                continue;
            }
            List<Row> segments = new ArrayList<>();
            for (TranscriptSegment s : t.segments())
                segments.add(RowFactory.create(s.startSeconds(), s.endSeconds(), s.text()));
            // the recognizers do not report a language (Moonshine hears English only): null rather than a guess
            out.add(new Outcome(
                    new Object[] {t.text(), seq(segments), null, t.audioSeconds(), asr.describe(), model.backend(), null
                    },
                    t.audioSeconds(),
                    null));
        }
        return out;
    }
}
