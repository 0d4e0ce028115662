package dev.audioengine.models.kokoro.text;

import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites the few English forms espeak-ng 1.51 reads wrong into words it reads right; everything else (cardinals,
 * "1,234", "3.5", "50%", "1st", "Dr.", "Mr.", "e.g.", "U.S.", "10:30") is left to espeak, which gets those right.
 * Each rule names what espeak does without it. Years and decades follow misaki, Kokoro's own English front end, which
 * reads every four-digit number as a year. Stateless and thread-safe.
 */
final class EnglishNormalizer {
    private EnglishNormalizer() {}

    static String normalize(String text) {
        String s = abbreviations(text);
        s = replace(
                RANGE,
                s,
                m -> m.group(1).length() == 3 && m.group(2).length() == 4
                        ? m.group()
                        : m.group(1) + " to " + m.group(2));
        s = replace(DECADE, s, EnglishNormalizer::decade);
        s = replace(YEAR, s, EnglishNormalizer::year);
        s = replace(MONEY, s, EnglishNormalizer::money);
        s = replace(TIME, s, EnglishNormalizer::time);
        s = replace(HUNDREDS_ORDINAL, s, EnglishNormalizer::hundredsOrdinal);
        s = replace(BARE_DECIMAL, s, m -> "point " + String.join(" ", m.group(1).split("")));
        return s;
    }

    // --- abbreviations: espeak spells "Ms", "Mt", "Sgt", "Jr", "Sr", "vs" as letters, and reads "Prof", "Capt", "Gen",
    // "Inc", "approx" as words; "Mr", "Mrs", "Dr" it reads with or without the dot, which goes so it is no full stop.

    /** Titles before a name. */
    private static final Map<String, String> TITLES = Map.ofEntries(
            Map.entry("Mr", "Mr"),
            Map.entry("Mrs", "Mrs"),
            Map.entry("Dr", "Dr"),
            Map.entry("Ms", "Miz"),
            Map.entry("Prof", "Professor"),
            Map.entry("Mt", "Mount"),
            Map.entry("Capt", "Captain"),
            Map.entry("Gen", "General"),
            Map.entry("Sgt", "Sergeant"),
            Map.entry("Lt", "Lieutenant"),
            Map.entry("Col", "Colonel"),
            Map.entry("St", "Saint"));

    private static final Pattern TITLE =
            Pattern.compile("\\b(Mrs|Mr|Dr|Ms|Prof|Mt|Capt|Gen|Sgt|Lt|Col|St)\\.(?=[ \\n]+[A-Z])");
    /** "Elm St." after a capitalized word and before no name is a street; before a name ("St. Paul") TITLE makes it a saint. */
    private static final Pattern STREET = Pattern.compile("(?<=\\b[A-Z][a-z]{1,20} )St\\.(?![ \\n]+[A-Z])");
    /** Abbreviations that may end a sentence, so their dot is kept when one does. */
    private static final Map<String, String> TRAILING =
            Map.of("Jr", "Junior", "Sr", "Senior", "Inc", "Incorporated", "approx", "approximately", "vs", "versus");

    private static final Pattern TRAILING_ABBREVIATION = Pattern.compile("\\b(Jr|Sr|Inc|approx|vs)\\b(\\.?)");
    private static final Pattern NUMBER_SIGN = Pattern.compile("\\bNo\\.(?= ?\\d)");

    private static String abbreviations(String s) {
        s = replace(STREET, s, (m, in) -> "Street" + (endsSentence(in, m.end()) ? "." : ""));
        s = replace(TITLE, s, m -> TITLES.get(m.group(1)));
        s = replace(NUMBER_SIGN, s, m -> "number");
        return replace(
                TRAILING_ABBREVIATION,
                s,
                (m, in) -> TRAILING.get(m.group(1))
                        + (!m.group(2).isEmpty() && !m.group(1).equals("vs") && endsSentence(in, m.end()) ? "." : ""));
    }

    /** A sentence ends before the end of the text, a blank line, or a space then a capital (after an opening quote). */
    private static final Pattern SENTENCE_START = Pattern.compile("\\s*\\z|[ ]*\\n\\s*\\n|\\s+[\"“(]?\\p{Lu}");

    private static boolean endsSentence(String text, int end) {
        return SENTENCE_START.matcher(text).region(end, text.length()).lookingAt();
    }

    // --- numbers

    /** "5-10" (espeak: "five dash ten"); not a chain such as a date or a phone number, nor 3 digits then 4. */
    private static final Pattern RANGE = Pattern.compile("(?<![\\d.,-])(\\d{1,4})-(\\d{1,4})(?![\\d-]|[.,]\\d)");
    /** "1990s", "'90s", "90s" (espeak: "nineteen hundred ninety z", "ninety z"). */
    private static final Pattern DECADE = Pattern.compile("(?<![\\d.,$£€])(?:(\\d\\d)(\\d)0|'?([1-9])0)s\\b");
    /** A four-digit number outside currency, decimals and dash chains (dates, phone numbers): read as a year, as misaki does ("twenty twenty-four"). */
    private static final Pattern YEAR = Pattern.compile("(?<![\\d.,$£€:]|\\d-)\\b([1-9]\\d)(\\d\\d)\\b(?![.,:-]\\d)");
    /** "$20", "£5.50", "€1.5 million" (espeak: "dollar twenty", "pound five point five zero"). */
    private static final Pattern MONEY = Pattern.compile(
            "([$£€]) ?(\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.(\\d{1,2}))?(?:(?: |(?<=\\d))(hundred|thousand|million|billion|trillion)\\b)?(?!\\d)");
    /** "10:05", "10:00" (espeak: "ten zero five", "ten zero zero"). */
    private static final Pattern TIME = Pattern.compile(
            "(?<![\\d:])\\b([01]?\\d|2[0-3]):([0-5]\\d)\\b(?!:\\d)( ?(?:[ap]\\.?m\\b\\.?))?", Pattern.CASE_INSENSITIVE);
    /** "100th", "1,000th" (espeak: "one hundred th"); other ordinals it reads. */
    private static final Pattern HUNDREDS_ORDINAL =
            Pattern.compile("(?<![\\d.,])(\\d{1,3}(?:,\\d{3})+|\\d+)(?:th|TH)\\b");
    /** ".5" (espeak: "dot five"). */
    private static final Pattern BARE_DECIMAL = Pattern.compile("(?<![\\w.])\\.(\\d+)\\b");

    private static final String[] TENS = {
        "", "tens", "twenties", "thirties", "forties", "fifties", "sixties", "seventies", "eighties", "nineties"
    };

    private static String decade(MatchResult m) {
        if (m.group(3) != null) return TENS[m.group(3).charAt(0) - '0'];
        String century = m.group(1);
        int tens = m.group(2).charAt(0) - '0';
        if (tens > 0) return century + " " + TENS[tens];
        return century.charAt(1) == '0' ? century.charAt(0) + " thousands" : century + " hundreds"; // 2000s, 1900s
    }

    private static String year(MatchResult m) {
        int left = Integer.parseInt(m.group(1)), right = Integer.parseInt(m.group(2));
        int year = left * 100 + right;
        // espeak already says "nineteen hundred" and "two thousand five", which is how those years are read
        if (year % 1000 < 10 || right == 0) return m.group();
        return left + (right < 10 ? " oh " : " ") + right;
    }

    private record Currency(String one, String many, String centOne, String centMany) {}

    private static final Map<String, Currency> CURRENCIES = Map.of(
            "$", new Currency("dollar", "dollars", "cent", "cents"),
            "£", new Currency("pound", "pounds", "penny", "pence"),
            "€", new Currency("euro", "euros", "cent", "cents"));

    private static String money(MatchResult m) {
        Currency c = CURRENCIES.get(m.group(1));
        String whole = m.group(2), fraction = m.group(3), scale = m.group(4);
        if (scale != null) return whole + (fraction != null ? "." + fraction : "") + " " + scale + " " + c.many();
        String units = whole + " " + (whole.equals("1") ? c.one() : c.many());
        if (fraction == null) return units;
        int cents = Integer.parseInt(fraction.length() == 1 ? fraction + "0" : fraction);
        if (cents == 0) return units;
        String small = cents + " " + (cents == 1 ? c.centOne() : c.centMany());
        return whole.replace(",", "").matches("0+") ? small : units + " and " + small;
    }

    private static String time(MatchResult m) {
        String hour = m.group(1), minute = m.group(2), suffix = m.group(3) == null ? "" : m.group(3);
        if (minute.equals("00")) return suffix.isEmpty() ? hour + " o'clock" : hour + suffix;
        if (minute.charAt(0) == '0') return hour + " oh " + minute.charAt(1) + suffix;
        return m.group();
    }

    private static String hundredsOrdinal(MatchResult m) {
        long n = Long.parseLong(m.group(1).replace(",", ""));
        if (n == 0 || n % 100 != 0) return m.group();
        if (n % 1_000_000 == 0) return n / 1_000_000 + " millionth";
        if (n % 1000 == 0) return n / 1000 + " thousandth";
        return n / 100 + " hundredth";
    }

    private static String replace(Pattern p, String s, Function<MatchResult, String> f) {
        return replace(p, s, (m, in) -> f.apply(m));
    }

    /** Replaces every match by what {@code f} makes of it and of the whole input (for context after the match). */
    private static String replace(Pattern p, String s, BiFunction<MatchResult, String, String> f) {
        Matcher m = p.matcher(s);
        StringBuilder out = new StringBuilder(s.length() + 16);
        while (m.find()) m.appendReplacement(out, Matcher.quoteReplacement(f.apply(m.toMatchResult(), s)));
        return m.appendTail(out).toString();
    }
}
