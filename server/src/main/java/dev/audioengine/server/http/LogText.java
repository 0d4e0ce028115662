package dev.audioengine.server.http;

/**
 * Text a client chose (a path, a file name, a field's value, a message that quotes one), made safe for the one-line
 * log: control characters are escaped ({@code \n}, {@code \r}, {@code \t}, else {@code \u001b}), and so is the
 * backslash, so a client can neither start a forged log line nor send escape sequences to an operator's terminal, and
 * what the log shows reads back unambiguously.
 */
final class LogText {
    private LogText() {}

    static String escape(String s) {
        if (s == null) return "-";
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String e = switch (c) {
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                case '\\' -> "\\\\";
                default ->
                    Character.isISOControl(c) || c == '\u2028' || c == '\u2029'
                            ? String.format("\\u%04x", (int) c)
                            : null;
            };
            if (e == null) {
                if (b != null) b.append(c);
                continue;
            }
            if (b == null) b = new StringBuilder(s.length() + 16).append(s, 0, i);
            b.append(e);
        }
        return b == null ? s : b.toString();
    }
}
