package dev.audioengine.spark;

import dev.audioengine.audio.AudioStream;
import dev.audioengine.model.TaskModel;
import dev.audioengine.model.task.OfflineVad;
import dev.audioengine.model.task.SpeechSegment;
import dev.audioengine.model.task.VadOptions;
import dev.audioengine.model.task.VoiceActivityDetector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Voice activity detection ({@code --task vad}) over a DataFrame of recordings: adds {@code segments} (start and end
 * of each stretch of speech, in seconds), {@code audio_seconds}, {@code model}, {@code backend} and {@code error}.
 * Each recording is decoded and detected block by block with the CLI's defaults ({@link VadOptions#DEFAULTS}), as
 * {@link VoiceActivityDetector#segments(java.nio.file.Path, VadOptions)} does for a file.
 */
public final class VadTransformer extends AudioRowsTransformer<VadTransformer> {
    private static final long serialVersionUID = 1L;

    /** One stretch of speech: start and end in seconds. */
    public static final StructType SEGMENT =
            new StructType().add("start", DataTypes.DoubleType, false).add("end", DataTypes.DoubleType, false);

    private static final List<StructField> FIELDS = List.of(
            DataTypes.createStructField("segments", DataTypes.createArrayType(SEGMENT, false), true),
            DataTypes.createStructField("audio_seconds", DataTypes.DoubleType, true),
            DataTypes.createStructField("model", DataTypes.StringType, true),
            DataTypes.createStructField("backend", DataTypes.StringType, true),
            DataTypes.createStructField("error", DataTypes.StringType, true));

    /** A transformer with the default detector (Silero) on the CPU, the CLI's options. */
    public VadTransformer() {}

    @Override
    public List<StructField> resultFields() {
        return FIELDS;
    }

    @Override
    Class<? extends TaskModel> modelType() {
        return VoiceActivityDetector.class;
    }

    @Override
    List<Outcome> process(ExecutorModels.Loaded model, List<Row> rows, Columns columns) {
        VoiceActivityDetector vad = (VoiceActivityDetector) model.model();
        List<Outcome> out = new ArrayList<>();
        for (Row row : rows) {
            List<Row> segments = new ArrayList<>();
            double seconds;
            try (AudioStream opened = open(row, columns)) {
                AudioStream in = opened;
                if (!vad.sampleRates().contains(in.sourceRate()))
                    in = in.resampleTo(
                            vad.sampleRates().stream().max(Integer::compare).orElseThrow());
                float[] block = new float[1 << 16];
                List<SpeechSegment> found = new ArrayList<>();
                try (OfflineVad session = vad.offline(in.sampleRate(), VadOptions.DEFAULTS)) {
                    for (int n; (n = in.read(block, 0, block.length)) >= 0; )
                        found.addAll(session.accept(block, 0, n).segments());
                    found.addAll(session.finish().segments());
                }
                for (SpeechSegment s : found) segments.add(RowFactory.create(s.startSeconds(), s.endSeconds()));
                seconds = in.samplesRead() / (double) in.sampleRate();
            } catch (IOException | RuntimeException e) {
                out.add(failed(model, path(row, columns), unwrap(e)));
                continue;
            }
            out.add(new Outcome(
                    new Object[] {seq(segments), seconds, vad.describe(), model.backend(), null}, seconds, null));
        }
        return out;
    }
}
