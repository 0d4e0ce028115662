package dev.audioengine.models.moonshine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The golden fixture checks this against TextDecoder itself; these check it against the JDK and by hand. */
class ReplacingUtf8DecoderTest {

    private static String decode(int... unsigned) {
        byte[] b = new byte[unsigned.length];
        for (int i = 0; i < b.length; i++) b[i] = (byte) unsigned[i];
        return ReplacingUtf8Decoder.decode(b, b.length);
    }

    @Test
    void replacesEachMaximalSubpartOnce() {
        assertThat(decode(0xE6, 0x97, 0x41)).isEqualTo("\uFFFDA");
        assertThat(decode(0xED, 0xA0, 0x80))
                .as("an encoded surrogate: ED alone, then two stray continuations")
                .isEqualTo("\uFFFD\uFFFD\uFFFD");
        assertThat(decode(0xF0, 0x9F, 0x98)).isEqualTo("\uFFFD");
        assertThat(decode(0xF4, 0x90, 0x80, 0x80)).isEqualTo("\uFFFD\uFFFD\uFFFD\uFFFD");
        assertThat(decode(0xC0, 0x80)).isEqualTo("\uFFFD\uFFFD");
        assertThat(decode(0xE6, 0xC3, 0xA9)).isEqualTo("\uFFFDé");
        assertThat(decode(0xEF, 0xBB, 0xBF, 0x61))
                .as("a byte-order mark is text")
                .isEqualTo("\uFEFFa");
        assertThat(decode()).isEmpty();
    }

    @Test
    void decodesValidTextAsTheJdkDoes() {
        Random rnd = new Random(11);
        for (int n = 0; n < 2000; n++) {
            StringBuilder sb = new StringBuilder();
            for (int i = rnd.nextInt(20); i > 0; i--) {
                int cp;
                do
                    cp = switch (rnd.nextInt(4)) {
                        case 0 -> rnd.nextInt(0x80);
                        case 1 -> 0x80 + rnd.nextInt(0x780);
                        case 2 -> 0x800 + rnd.nextInt(0x10000 - 0x800);
                        default -> 0x10000 + rnd.nextInt(0x100000);
                    };
                while (cp >= 0xD800 && cp <= 0xDFFF);
                sb.appendCodePoint(cp);
            }
            byte[] utf8 = sb.toString().getBytes(StandardCharsets.UTF_8);
            assertThat(ReplacingUtf8Decoder.decode(utf8, utf8.length)).isEqualTo(sb.toString());
        }
    }

    @Test
    void findsRandomBytesValidExactlyWhenTheJdksStrictDecoderDoes() {
        Random rnd = new Random(12);
        int invalid = 0;
        for (int n = 0; n < 20000; n++) {
            byte[] b = new byte[rnd.nextInt(8)];
            for (int i = 0; i < b.length; i++)
                b[i] = (byte) (rnd.nextInt(3) == 0 ? rnd.nextInt(0x80) : 0x80 + rnd.nextInt(0x80));
            String ours = ReplacingUtf8Decoder.decode(b, b.length);
            String strict;
            try {
                strict = StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(b))
                        .toString();
            } catch (CharacterCodingException e) {
                strict = null;
                invalid++;
            }
            if (strict != null) assertThat(ours).isEqualTo(strict);
            else assertThat(ours).contains("\uFFFD");
            // away from ED (where the JDK takes a surrogate as one sequence) both replace the same way
            boolean hasEd = false;
            for (byte x : b) hasEd |= (x & 0xFF) == 0xED;
            if (!hasEd)
                assertThat(ours)
                        .as(java.util.HexFormat.of().formatHex(b))
                        .isEqualTo(new String(b, StandardCharsets.UTF_8));
        }
        assertThat(invalid).isGreaterThan(1000);
    }
}
