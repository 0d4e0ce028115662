package dev.audioengine.models.kokoro.text;

import java.util.Map;
import java.util.Random;

/** Seeded test sentences: words of the language, names, numbers of every written form, and Kokoro's punctuation. */
final class GeneratedText {
    private GeneratedText() {}

    private static final String[] ENGLISH =
            ("the a of and to in is was he she it they we you I that with for on at by from as but not "
                            + "house water little button thought four start nurse square near cure idea church judge voice boy day time father city "
                            + "pleasure vision quickly beautiful computer chocolate tomorrow question garden mother yesterday strength rhythm "
                            + "through although queue colonel schedule vulnerable curious horizon asked jumped boxes judges didn't we've you'll "
                            + "John Mary Smith O'Brien Jean-Pierre Nguyen Tchaikovsky Zürich Aoife Siobhan Kokoro NASA FBI iPhone well-known")
                    .split(" ");
    private static final Map<KokoroLanguage, String[]> OTHER = Map.of(
            KokoroLanguage.SPANISH,
                    "el la de que y en un una perro rabo porque jamón paella chorizo cigüeña llave guerra niño año García Madrid"
                            .split(" "),
            KokoroLanguage.FRENCH,
                    "le la de et un une château hôpital forêt œufs garçon brun parfum vin pain bonjour Jean-Pierre Noël Paris"
                            .split(" "),
            KokoroLanguage.HINDI,
                    "भारत एक विशाल देश है यहाँ भाषाएँ चाय पसंद लेकिन कॉफ़ी नहीं ऋषि ज्ञान क्षत्रिय श्रम ढोल ठंडा ग़ज़ल"
                            .split(" "),
            KokoroLanguage.ITALIAN,
                    "il la di e un gli gnocchi cielo azzurro pizza squisita zio Firenze sciare giallo chiesa ghiaccio figlio"
                            .split(" "),
            KokoroLanguage.BRAZILIAN_PORTUGUESE,
                    "o a de e um rato roeu roupa rei pão feijão açaí coração mãe irmãos lhama ninho chuva táxi"
                            .split(" "));
    private static final String[] ENDS = {".", "?", "!", "…", "?!", "."};
    private static final String[] INNER = {",", ";", ":", " —", ","};

    static String sentence(Random r, KokoroLanguage language) {
        String[] words = language.isEnglish() ? ENGLISH : OTHER.get(language);
        StringBuilder b = new StringBuilder();
        int n = 3 + r.nextInt(14);
        for (int i = 0; i < n; i++) {
            if (i > 0) b.append(' ');
            int kind = r.nextInt(10);
            if (kind == 0) b.append(number(r, language.isEnglish()));
            else if (kind == 1 && i + 1 < n)
                b.append(words[r.nextInt(words.length)]).append(INNER[r.nextInt(INNER.length)]);
            else if (kind == 2 && i + 2 < n)
                b.append(r.nextBoolean() ? "(" : "“")
                        .append(words[r.nextInt(words.length)])
                        .append(r.nextBoolean() ? ")" : "”");
            else b.append(words[r.nextInt(words.length)]);
        }
        String s = b.toString();
        return Character.toUpperCase(s.charAt(0)) + s.substring(1) + ENDS[r.nextInt(ENDS.length)];
    }

    private static String number(Random r, boolean english) {
        return switch (r.nextInt(english ? 12 : 4)) {
            case 0 -> Integer.toString(r.nextInt(100));
            case 1 -> Integer.toString(r.nextInt(1_000_000));
            case 2 -> r.nextInt(100) + "." + r.nextInt(100);
            case 3 -> String.format("%,d", r.nextInt(10_000_000));
            case 4 -> "$" + r.nextInt(1000) + (r.nextBoolean() ? "." + (10 + r.nextInt(90)) : "");
            case 5 -> (1100 + r.nextInt(950)) + (r.nextBoolean() ? "s" : "");
            case 6 -> r.nextInt(24) + ":" + String.format("%02d", r.nextInt(60)) + (r.nextBoolean() ? " pm" : "");
            case 7 -> (1 + r.nextInt(120)) + new String[] {"st", "nd", "rd", "th"}[r.nextInt(4)];
            case 8 -> (1 + r.nextInt(9)) * 100 + "th";
            case 9 -> r.nextInt(20) + "-" + (20 + r.nextInt(20));
            case 10 ->
                new String[] {"Dr. Who", "Mr. Bean", "Ms. Lee", "St. Ives", "vs.", "e.g.", "U.S.", "No. 9", "Inc."}
                        [r.nextInt(9)];
            default -> "£" + r.nextInt(100) + "." + (10 + r.nextInt(90));
        };
    }
}
