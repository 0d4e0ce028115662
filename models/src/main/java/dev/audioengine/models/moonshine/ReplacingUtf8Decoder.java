package dev.audioengine.models.moonshine;

/**
 * UTF-8 to text the way the WHATWG Encoding Standard's decoder (the JS TextDecoder, hence llama-tokenizer-js)
 * does it, without its byte-order-mark stripping: every maximal subpart of an ill-formed sequence becomes one
 * U+FFFD. The JDK's decoder is close but not the same: it takes an encoded surrogate such as ED A0 80 as one
 * malformed sequence (one U+FFFD) where TextDecoder sees three.
 */
final class ReplacingUtf8Decoder {
    private ReplacingUtf8Decoder() {}

    static String decode(byte[] bytes, int length) {
        StringBuilder out = new StringBuilder(length);
        int codePoint = 0, needed = 0, seen = 0;
        int lower = 0x80, upper = 0xBF; // the range the next continuation byte must fall in
        for (int i = 0; i < length; i++) {
            int b = bytes[i] & 0xFF;
            if (needed == 0) {
                if (b <= 0x7F) {
                    out.append((char) b);
                } else if (b >= 0xC2 && b <= 0xDF) {
                    needed = 1;
                    codePoint = b & 0x1F;
                } else if (b >= 0xE0 && b <= 0xEF) {
                    if (b == 0xE0) lower = 0xA0; // below: overlong
                    if (b == 0xED) upper = 0x9F; // above: a surrogate
                    needed = 2;
                    codePoint = b & 0x0F;
                } else if (b >= 0xF0 && b <= 0xF4) {
                    if (b == 0xF0) lower = 0x90; // below: overlong
                    if (b == 0xF4) upper = 0x8F; // above: past U+10FFFF
                    needed = 3;
                    codePoint = b & 0x07;
                } else {
                    out.append('\uFFFD'); // a continuation byte without a lead, C0, C1 or F5-FF
                }
                continue;
            }
            if (b < lower || b > upper) {
                // the sequence so far is one maximal subpart; this byte starts afresh
                out.append('\uFFFD');
                codePoint = needed = seen = 0;
                lower = 0x80;
                upper = 0xBF;
                i--;
                continue;
            }
            lower = 0x80;
            upper = 0xBF;
            codePoint = codePoint << 6 | (b & 0x3F);
            if (++seen == needed) {
                out.appendCodePoint(codePoint);
                codePoint = needed = seen = 0;
            }
        }
        if (needed != 0) out.append('\uFFFD'); // cut short at the end
        return out.toString();
    }
}
