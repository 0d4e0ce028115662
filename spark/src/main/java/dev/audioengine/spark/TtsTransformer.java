package dev.audioengine.spark;

import dev.audioengine.model.TaskModel;
import dev.audioengine.model.output.WavWriter;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SynthesisOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Speech synthesis ({@code --task tts}) over a DataFrame of text: adds {@code audio} (a 16-bit PCM WAV file's bytes,
 * as {@code audioengine --task tts} writes it), {@code sample_rate}, {@code audio_seconds}, {@code model},
 * {@code backend} and {@code error}.
 */
public final class TtsTransformer extends AudioTransformer<TtsTransformer> {
    private static final long serialVersionUID = 1L;

    private static final List<StructField> FIELDS = List.of(
            DataTypes.createStructField("audio", DataTypes.BinaryType, true),
            DataTypes.createStructField("sample_rate", DataTypes.IntegerType, true),
            DataTypes.createStructField("audio_seconds", DataTypes.DoubleType, true),
            DataTypes.createStructField("model", DataTypes.StringType, true),
            DataTypes.createStructField("backend", DataTypes.StringType, true),
            DataTypes.createStructField("error", DataTypes.StringType, true));

    private String textCol = "text";
    private String voice;
    private double speed = 1.0;

    /** A transformer with the default synthesizer (Kokoro) on the CPU, its default voice. */
    public TtsTransformer() {}

    /**
     * @param column the string column to say; {@code text} by default
     * @return this transformer
     */
    public TtsTransformer setTextCol(String column) {
        this.textCol = column;
        return this;
    }

    /**
     * @param v a voice name ({@code audioengine voices}), or null for the model's default
     * @return this transformer
     */
    public TtsTransformer setVoice(String v) {
        this.voice = v;
        return this;
    }

    /**
     * @param s speaking speed, 1 for normal; checked by {@link SynthesisOptions}
     * @return this transformer
     * @throws IllegalArgumentException if out of range
     */
    public TtsTransformer setSpeed(double s) {
        SynthesisOptions.DEFAULTS.withSpeed(s);
        this.speed = s;
        return this;
    }

    @Override
    Columns bind(StructType schema) {
        int text = index(schema, textCol);
        if (text < 0 || !schema.fields()[text].dataType().equals(DataTypes.StringType))
            throw new IllegalArgumentException("the input needs a string column '" + textCol + "' to say; it has "
                    + String.join(", ", schema.fieldNames()));
        return new Columns(text, -1);
    }

    @Override
    public List<StructField> resultFields() {
        return FIELDS;
    }

    @Override
    Class<? extends TaskModel> modelType() {
        return SpeechSynthesizer.class;
    }

    @Override
    List<Outcome> process(ExecutorModels.Loaded model, List<Row> rows, Columns columns) {
        SpeechSynthesizer tts = (SpeechSynthesizer) model.model();
        SynthesisOptions options = SynthesisOptions.DEFAULTS.withSpeed(speed);
        if (voice != null) options = options.withVoice(voice);
        List<Outcome> out = new ArrayList<>();
        for (Row row : rows) {
            String text = row.isNullAt(columns.input()) ? null : row.getString(columns.input());
            try {
                if (text == null) throw new IllegalArgumentException("the row has no text");
                SpeechSynthesizer.SpeechAudio audio = tts.synthesize(text, options);
                ByteArrayOutputStream wav = new ByteArrayOutputStream();
                WavWriter.writePcm16(wav, audio.samples(), audio.sampleRate());
                double seconds = audio.samples().length / (double) audio.sampleRate();
                out.add(new Outcome(
                        new Object[] {
                            wav.toByteArray(), audio.sampleRate(), seconds, tts.describe(), model.backend(), null
                        },
                        seconds,
                        null));
            } catch (IOException | RuntimeException e) {
                out.add(failed(model, text, unwrap(e)));
            }
        }
        return out;
    }
}
