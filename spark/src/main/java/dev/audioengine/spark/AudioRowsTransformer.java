package dev.audioengine.spark;

import dev.audioengine.audio.AudioStream;
import java.io.IOException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The tasks that read audio: each row is a recording, given by its bytes (Spark's {@code binaryFile} source:
 * {@code path}, {@code content}, ...) or by its path alone (a manifest, or {@code binaryFile} with only {@code path}
 * selected, which Spark then does not read: the executor streams the file itself, in bounded memory).
 *
 * @param <T> the concrete transformer
 */
public abstract class AudioRowsTransformer<T extends AudioRowsTransformer<T>> extends AudioTransformer<T> {
    private static final long serialVersionUID = 1L;

    private String pathCol = "path";
    private String contentCol = "content";

    AudioRowsTransformer() {}

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    /**
     * @param column the string column of paths or URIs ({@code file:}, {@code hdfs:}, ... as Hadoop reads them);
     *     {@code path} by default, as {@code binaryFile} names it
     * @return this transformer
     */
    public T setPathCol(String column) {
        this.pathCol = column;
        return self();
    }

    /**
     * @param column the binary column of file bytes, read instead of the path when present and not null;
     *     {@code content} by default, as {@code binaryFile} names it
     * @return this transformer
     */
    public T setContentCol(String column) {
        this.contentCol = column;
        return self();
    }

    @Override
    Columns bind(StructType schema) {
        int path = index(schema, pathCol);
        int content = index(schema, contentCol);
        if (path < 0 && content < 0)
            throw new IllegalArgumentException(
                    "the input has neither a '" + pathCol + "' column (paths or URIs) nor a '" + contentCol
                            + "' column (file bytes); it has " + String.join(", ", schema.fieldNames()));
        if (path >= 0 && !schema.fields()[path].dataType().equals(DataTypes.StringType))
            throw new IllegalArgumentException("column '" + pathCol + "' must hold strings, not "
                    + schema.fields()[path].dataType().simpleString());
        if (content >= 0 && !schema.fields()[content].dataType().equals(DataTypes.BinaryType))
            throw new IllegalArgumentException("column '" + contentCol + "' must hold bytes, not "
                    + schema.fields()[content].dataType().simpleString());
        return new Columns(content, path);
    }

    static String path(Row row, Columns c) {
        return c.path() < 0 || row.isNullAt(c.path()) ? null : row.getString(c.path());
    }

    static AudioStream open(Row row, Columns c) throws IOException {
        byte[] content = c.input() < 0 || row.isNullAt(c.input()) ? null : (byte[]) row.get(c.input());
        return AudioInput.open(content, path(row, c));
    }
}
