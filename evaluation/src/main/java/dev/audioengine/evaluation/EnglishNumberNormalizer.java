package dev.audioengine.evaluation;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spelled-out English numbers to digits, with the rules of Whisper's (release 20250625) number normaliser so that
 * scores compare with published ones: "twenty one" → 21, "two hundred and five" → 205, "one oh one" → 101 (single
 * digits in a row are read as a string of digits), "double seven" → 77, ordinals and plurals keep their suffix
 * ("twenty first" → 21st, "sixties" → 60s), "five percent" → 5%, "three dollars and fifty cents" → $3.50, "two and
 * a half" → 2.5. Whisper then writes a lone 1 back as "one" (and 1s as "ones"), so "one" never becomes a digit and
 * "one point five" ends as "one.5"; this keeps that too, quirks included, since a score is only comparable when
 * both sides are normalised the same way as the reference tool did.
 *
 * <p>Expects what {@link EnglishTextNormalizer} hands it: lower case, punctuation already replaced by spaces except
 * {@code . % $ ¢ € £}. Stateless and thread-safe.
 */
final class EnglishNumberNormalizer {
    private static final int FLAGS = Pattern.UNICODE_CHARACTER_CLASS;
    private static final Pattern NUMERIC = Pattern.compile("\\d+(\\.\\d+)?", FLAGS);
    private static final Pattern FRACTION = Pattern.compile("\\d+\\.?\\d*|\\.\\d+", FLAGS);
    private static final Pattern AND_A_HALF = Pattern.compile("\\band\\s+a\\s+half\\b", FLAGS);
    private static final Pattern LETTER_DIGIT = Pattern.compile("([a-z])([0-9])", FLAGS);
    private static final Pattern DIGIT_LETTER = Pattern.compile("([0-9])([a-z])", FLAGS);
    private static final Pattern DETACHED_SUFFIX = Pattern.compile("([0-9])\\s+(st|nd|rd|th|s)\\b", FLAGS);
    private static final Pattern DOLLARS_AND_CENTS =
            Pattern.compile("([€£$])([0-9]+) (?:and )?¢([0-9]{1,2})\\b", FLAGS);
    // the '.' is any character, as in Whisper's pattern
    private static final Pattern ONLY_CENTS = Pattern.compile("[€£$]0.([0-9]{1,2})\\b", FLAGS);
    private static final Pattern LONE_ONE = Pattern.compile("\\b1(s?)\\b", FLAGS);
    private static final Pattern WHITESPACE = Pattern.compile("\\s+", FLAGS);

    private static final List<String> ONES_NAMES = List.of(
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen");
    private static final List<String> TENS_NAMES =
            List.of("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety");
    private static final List<String> MULTIPLIER_NAMES = List.of(
            "hundred",
            "thousand",
            "million",
            "billion",
            "trillion",
            "quadrillion",
            "quintillion",
            "sextillion",
            "septillion",
            "octillion",
            "nonillion",
            "decillion");

    /** A number word with the suffix its digits keep: "sixes" → (6, "s"), "fifth" → (5, "th"). */
    private record Suffixed(int value, String suffix) {}

    private static final Set<String> ZEROS = Set.of("o", "oh", "zero");
    private static final Map<String, Integer> ONES = new HashMap<>();
    private static final Map<String, Suffixed> ONES_SUFFIXED = new HashMap<>();
    private static final Map<String, Integer> TENS = new HashMap<>();
    private static final Map<String, Suffixed> TENS_SUFFIXED = new HashMap<>();
    private static final Map<String, BigInteger> MULTIPLIERS = new HashMap<>();
    private static final Map<String, String> MULTIPLIER_SUFFIXES =
            new HashMap<>(); // "millions" → "s", "millionth" → "th"
    private static final Map<String, String> PRECEDING_SIGNS =
            Map.of("minus", "-", "negative", "-", "plus", "+", "positive", "+");
    private static final Map<String, String> FOLLOWING_CURRENCIES = Map.of(
            "pound", "£", "pounds", "£", "euro", "€", "euros", "€", "dollar", "$", "dollars", "$", "cent", "¢", "cents",
            "¢");
    private static final Set<Integer> PREFIX_SYMBOLS =
            Set.of((int) '-', (int) '+', (int) '£', (int) '€', (int) '$', (int) '¢');
    private static final Set<String> SPECIALS = Set.of("and", "double", "triple", "point");
    /** The words after "point" that make it a decimal point. */
    private static final Set<String> DECIMALS = new HashSet<>();
    /** Every word that may take part in a number. */
    private static final Set<String> WORDS = new HashSet<>();

    static {
        for (int i = 0; i < ONES_NAMES.size(); i++) {
            String name = ONES_NAMES.get(i);
            int value = i + 1;
            ONES.put(name, value);
            ONES_SUFFIXED.put(name.equals("six") ? "sixes" : name + "s", new Suffixed(value, "s"));
            if (value > 3 && value != 5 && value != 12)
                ONES_SUFFIXED.put(name + (name.endsWith("t") ? "h" : "th"), new Suffixed(value, "th"));
        }
        ONES_SUFFIXED.put("zeroth", new Suffixed(0, "th"));
        ONES_SUFFIXED.put("first", new Suffixed(1, "st"));
        ONES_SUFFIXED.put("second", new Suffixed(2, "nd"));
        ONES_SUFFIXED.put("third", new Suffixed(3, "rd"));
        ONES_SUFFIXED.put("fifth", new Suffixed(5, "th"));
        ONES_SUFFIXED.put("twelfth", new Suffixed(12, "th"));
        for (int i = 0; i < TENS_NAMES.size(); i++) {
            String name = TENS_NAMES.get(i);
            int value = 20 + 10 * i;
            TENS.put(name, value);
            TENS_SUFFIXED.put(name.replace("y", "ies"), new Suffixed(value, "s"));
            TENS_SUFFIXED.put(name.replace("y", "ieth"), new Suffixed(value, "th"));
        }
        for (int i = 0; i < MULTIPLIER_NAMES.size(); i++) {
            String name = MULTIPLIER_NAMES.get(i);
            MULTIPLIERS.put(name, i == 0 ? BigInteger.valueOf(100) : BigInteger.TEN.pow(3 * i));
            MULTIPLIER_SUFFIXES.put(name + "s", "s");
            MULTIPLIER_SUFFIXES.put(name + "th", "th");
        }
        DECIMALS.addAll(ONES.keySet());
        DECIMALS.addAll(TENS.keySet());
        DECIMALS.addAll(ZEROS);
        for (Set<String> s : List.of(
                ZEROS,
                ONES.keySet(),
                ONES_SUFFIXED.keySet(),
                TENS.keySet(),
                TENS_SUFFIXED.keySet(),
                MULTIPLIERS.keySet(),
                MULTIPLIER_SUFFIXES.keySet(),
                PRECEDING_SIGNS.keySet(),
                FOLLOWING_CURRENCIES.keySet(),
                Set.of("per", "percent"),
                SPECIALS)) {
            WORDS.addAll(s);
        }
    }

    String normalize(String s) {
        s = preprocess(s);
        List<String> words = new ArrayList<>();
        for (String w : WHITESPACE.split(s)) if (!w.isEmpty()) words.add(w);
        return postprocess(String.join(" ", new Reading().read(words)));
    }

    /** "two and a half" → "two point five"; digits and letters apart ("5km" → "5 km") but suffixes on ("5 th" → "5th"). */
    private static String preprocess(String s) {
        String[] segments = AND_A_HALF.split(s, -1);
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (segment.isBlank()) continue; // as in Whisper, an "and a half" with nothing before it goes too
            parts.add(segment);
            if (i == segments.length - 1) continue;
            String[] before = WHITESPACE.split(segment.strip());
            String last = before[before.length - 1];
            parts.add(DECIMALS.contains(last) || MULTIPLIERS.containsKey(last) ? "point five" : "and a half");
        }
        s = String.join(" ", parts);
        s = LETTER_DIGIT.matcher(s).replaceAll("$1 $2");
        s = DIGIT_LETTER.matcher(s).replaceAll("$1 $2");
        return DETACHED_SUFFIX.matcher(s).replaceAll("$1$2");
    }

    /** "$2 and ¢7" → "$2.07", "$0.07" → "¢7", and 1 back to "one". */
    private static String postprocess(String s) {
        s = DOLLARS_AND_CENTS
                .matcher(s)
                .replaceAll(m -> Matcher.quoteReplacement(m.group(1) + m.group(2) + "."
                        + String.format(Locale.ROOT, "%02d", Integer.parseInt(m.group(3)))));
        s = ONLY_CENTS.matcher(s).replaceAll(m -> Matcher.quoteReplacement("¢" + Integer.parseInt(m.group(1))));
        return LONE_ONE.matcher(s).replaceAll("one$1");
    }

    /**
     * One left-to-right pass over the words, building the number in hand. Like Whisper's, the number is either an
     * integer (still open to arithmetic: "two hundred" + "five") or a string of digits (a run of single digits, a
     * decimal), and a currency or sign waits in {@code prefix} for the number it belongs to.
     */
    private static final class Reading {
        private final List<String> out = new ArrayList<>();
        private String prefix;
        private BigInteger integer; // at most one of integer and digits is set
        private String digits;

        private boolean hasValue() {
            return integer != null || digits != null;
        }

        private String valueText() {
            return integer != null ? integer.toString() : digits;
        }

        /** Python's {@code str(value or "")}: no value, 0 and "" all read as "". */
        private String valueOrEmpty() {
            if (integer != null) return integer.signum() == 0 ? "" : integer.toString();
            return digits == null ? "" : digits;
        }

        private void setInteger(BigInteger v) {
            integer = v;
            digits = null;
        }

        private void setDigits(String v) {
            digits = v;
            integer = null;
        }

        /** Emits {@code text} behind any waiting prefix; the number in hand and the prefix are used up. */
        private void emit(String text) {
            out.add(prefix != null ? prefix + text : text);
            prefix = null;
            integer = null;
            digits = null;
        }

        private void emitValueIfAny() {
            if (hasValue()) emit(valueText());
        }

        List<String> read(List<String> words) {
            boolean skip = false;
            for (int i = 0; i < words.size(); i++) {
                if (skip) {
                    skip = false;
                    continue;
                }
                String prev = i > 0 ? words.get(i - 1) : null,
                        current = words.get(i),
                        next = i + 1 < words.size() ? words.get(i + 1) : null;
                boolean nextIsNumeric = next != null && NUMERIC.matcher(next).matches();
                int first = current.codePointAt(0);
                boolean hasPrefix = PREFIX_SYMBOLS.contains(first);
                String bare = hasPrefix ? current.substring(Character.charCount(first)) : current;
                if (NUMERIC.matcher(bare).matches()) {
                    if (hasValue()) {
                        if (digits != null
                                && digits.endsWith(".")) { // the digits after a spoken "point", or an address's parts
                            setDigits(digits + current);
                            continue;
                        }
                        emit(valueText());
                    }
                    if (hasPrefix) prefix = current.substring(0, Character.charCount(first));
                    BigDecimal f = new BigDecimal(bare);
                    if (isWhole(f)) setInteger(f.toBigIntegerExact());
                    else setDigits(bare);
                } else if (!WORDS.contains(current)) {
                    emitValueIfAny();
                    emit(current);
                } else if (ZEROS.contains(current)) {
                    setDigits(valueOrEmpty() + "0");
                } else if (ONES.containsKey(current)) {
                    ones(ONES.get(current), prev, null);
                } else if (ONES_SUFFIXED.containsKey(current)) {
                    Suffixed s = ONES_SUFFIXED.get(current);
                    ones(s.value(), prev, s.suffix());
                } else if (TENS.containsKey(current)) {
                    tens(TENS.get(current), null);
                } else if (TENS_SUFFIXED.containsKey(current)) {
                    Suffixed s = TENS_SUFFIXED.get(current);
                    tens(s.value(), s.suffix());
                } else if (MULTIPLIERS.containsKey(current)) {
                    multiplier(MULTIPLIERS.get(current));
                } else if (MULTIPLIER_SUFFIXES.containsKey(current)) {
                    String suffix = MULTIPLIER_SUFFIXES.get(current);
                    suffixedMultiplier(
                            MULTIPLIERS.get(current.substring(0, current.length() - suffix.length())), suffix);
                } else if (PRECEDING_SIGNS.containsKey(current)) {
                    emitValueIfAny();
                    if (WORDS.contains(next) || nextIsNumeric) prefix = PRECEDING_SIGNS.get(current);
                    else emit(current);
                } else if (FOLLOWING_CURRENCIES.containsKey(current)) {
                    if (hasValue()) {
                        prefix = FOLLOWING_CURRENCIES.get(current);
                        emit(valueText());
                    } else {
                        emit(current);
                    }
                } else if (current.equals("percent") || current.equals("per")) {
                    if (!hasValue()) {
                        emit(current);
                    } else if (current.equals("percent")) {
                        emit(valueText() + "%");
                    } else if ("cent".equals(next)) {
                        emit(valueText() + "%");
                        skip = true;
                    } else {
                        emit(valueText());
                        emit(current);
                    }
                } else { // and, double, triple, point
                    skip = special(current, prev, next, nextIsNumeric);
                }
            }
            emitValueIfAny();
            return out;
        }

        /** A ones word, cardinal ({@code suffix} null: the number stays open) or ordinal/plural (emitted at once). */
        private void ones(int ones, String prev, String suffix) {
            String result;
            if (!hasValue()) {
                if (suffix == null) {
                    setInteger(BigInteger.valueOf(ones));
                    return;
                }
                result = ones + suffix;
            } else if (digits != null || ONES.containsKey(prev)) {
                // a digit string goes on; "twenty" then "three" in one replaces the 0 it ended with
                String text = valueText();
                String joined =
                        TENS.containsKey(prev) && ones < 10 ? text.substring(0, text.length() - 1) + ones : text + ones;
                if (suffix == null) {
                    setDigits(joined);
                    return;
                }
                result = joined + suffix;
            } else {
                boolean adds =
                        integer.mod(BigInteger.valueOf(ones < 10 ? 10 : 100)).signum() == 0;
                if (suffix == null) {
                    if (adds) setInteger(integer.add(BigInteger.valueOf(ones)));
                    else setDigits(integer.toString() + ones);
                    return;
                }
                result = (adds ? integer.add(BigInteger.valueOf(ones)).toString() : integer.toString() + ones) + suffix;
            }
            emit(result);
        }

        private void tens(int tens, String suffix) {
            String result;
            if (!hasValue()) {
                if (suffix == null) {
                    setInteger(BigInteger.valueOf(tens));
                    return;
                }
                result = tens + suffix;
            } else if (digits != null) {
                if (suffix == null) {
                    setDigits(digits + tens);
                    return;
                }
                result = digits + tens + suffix;
            } else {
                boolean adds = integer.mod(BigInteger.valueOf(100)).signum() == 0;
                if (suffix == null) {
                    if (adds) setInteger(integer.add(BigInteger.valueOf(tens)));
                    else setDigits(integer.toString() + tens);
                    return;
                }
                result = (adds ? integer.add(BigInteger.valueOf(tens)).toString() : integer.toString() + tens) + suffix;
            }
            emit(result);
        }

        private void multiplier(BigInteger multiplier) {
            if (!hasValue()) {
                setInteger(multiplier);
            } else if (digits != null || integer.signum() == 0) {
                BigInteger product = wholeProduct(multiplier);
                if (product != null) {
                    setInteger(product);
                } else {
                    emit(valueText());
                    setInteger(multiplier);
                }
            } else {
                setInteger(scaled(multiplier));
            }
        }

        private void suffixedMultiplier(BigInteger multiplier, String suffix) {
            if (!hasValue()) {
                emit(multiplier + suffix);
            } else if (digits != null) {
                BigInteger product = wholeProduct(multiplier);
                if (product != null) {
                    emit(product + suffix);
                } else {
                    emit(valueText());
                    emit(multiplier + suffix);
                }
            } else {
                emit(scaled(multiplier) + suffix);
            }
        }

        /** "two thousand three" + "hundred": only the part below a thousand is multiplied. */
        private BigInteger scaled(BigInteger multiplier) {
            BigInteger[] split = integer.divideAndRemainder(BigInteger.valueOf(1000));
            return split[0].multiply(BigInteger.valueOf(1000)).add(split[1].multiply(multiplier));
        }

        /** The number in hand times {@code multiplier} when that is whole ("1.5" million), else null ("1.2.3" or "1.0005" hundred). */
        private BigInteger wholeProduct(BigInteger multiplier) {
            String text = valueText();
            if (!FRACTION.matcher(text).matches()) return null;
            BigDecimal p = new BigDecimal(text.endsWith(".") ? text + "0" : text).multiply(new BigDecimal(multiplier));
            return isWhole(p) ? p.toBigIntegerExact() : null;
        }

        /** "and", "double", "triple", "point"; true when the next word has been used up. */
        private boolean special(String current, String prev, String next, boolean nextIsNumeric) {
            if (!WORDS.contains(next) && !nextIsNumeric) { // only next to a number word do these take part in a number
                emitValueIfAny();
                emit(current);
                return false;
            }
            switch (current) {
                case "and" -> {
                    if (!MULTIPLIERS.containsKey(prev)) { // "hundred and five" is one number, "five and six" two
                        emitValueIfAny();
                        emit(current);
                    }
                }
                case "double", "triple" -> {
                    if (ONES.containsKey(next) || ZEROS.contains(next)) {
                        String digit = String.valueOf(ONES.getOrDefault(next, 0));
                        setDigits(valueOrEmpty() + digit.repeat(current.equals("double") ? 2 : 3));
                        return true;
                    }
                    emitValueIfAny();
                    emit(current);
                }
                default -> { // "point"; before a word that cannot follow a decimal point it is dropped, as in Whisper
                    if (DECIMALS.contains(next) || nextIsNumeric) setDigits(valueOrEmpty() + ".");
                }
            }
            return false;
        }
    }

    private static boolean isWhole(BigDecimal d) {
        return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
    }
}
