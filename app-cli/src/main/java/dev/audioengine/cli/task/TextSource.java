package dev.audioengine.cli.task;

import java.io.FilterReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The text {@code --task tts} says: {@code --text} itself or a UTF-8 file ({@code -}: standard input), opened as a
 * Reader so that streaming synthesis reads it as it goes rather than whole. Text that is not UTF-8 fails naming the
 * file, not with the decoder's bare "Input length = 1".
 */
public record TextSource(String text, Path file, Supplier<InputStream> stdin) {
    public static final Path STDIN = Path.of("-");

    /** How error messages and the summary name it. */
    String describe() {
        return text != null ? "--text" : file.equals(STDIN) ? "standard input" : file.toString();
    }

    Reader open() throws IOException {
        if (text != null) return new StringReader(text);
        InputStream in = file.equals(STDIN) ? nonClosing(stdin.get()) : Files.newInputStream(file);
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        return new FilterReader(new InputStreamReader(in, decoder)) {
            @Override
            public int read(char[] buf, int off, int len) throws IOException {
                try {
                    return super.read(buf, off, len);
                } catch (CharacterCodingException e) {
                    throw new IOException(
                            describe() + " is not UTF-8 text (" + e.getMessage() + "); convert it, e.g. iconv -t UTF-8",
                            e);
                }
            }

            @Override
            public int read() throws IOException {
                char[] one = new char[1];
                return read(one, 0, 1) < 0 ? -1 : one[0];
            }
        };
    }

    /** The whole text (offline synthesis takes a String). */
    public String readAll() throws IOException {
        if (text != null) return text;
        try (Reader r = open()) {
            StringWriter all = new StringWriter();
            r.transferTo(all);
            return all.toString();
        }
    }

    /** Standard input is the process's: reading it to the end is fine, closing it is not. */
    private static InputStream nonClosing(InputStream in) {
        return new java.io.FilterInputStream(in) {
            @Override
            public void close() {}
        };
    }
}
