package dev.audioengine.models.kokoro.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each rewrite, and the neighbours it must leave alone; what espeak makes of them is in KokoroPhonemizerTest. */
class EnglishNormalizerTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // money: espeak says the symbol first ("dollar twenty")
                "It costs $20.|It costs 20 dollars.",
                "$1 and £1 and €1|1 dollar and 1 pound and 1 euro",
                "$20.50|20 dollars and 50 cents",
                "$2.5|2 dollars and 50 cents",
                "$3.00|3 dollars",
                "$0.99|99 cents",
                "£5.01|5 pounds and 1 penny",
                "£5.50|5 pounds and 50 pence",
                "$1,234|1,234 dollars",
                "€1.5 million|1.5 million euros",
                "$5bn|5 dollarsbn",
                // decades and years: espeak says "nineteen hundred ninety z", "two thousand twenty four"
                "the 1990s|the 19 nineties",
                "the '80s and 70s|the eighties and seventies",
                "the 1900s and 2000s|the 19 hundreds and 2 thousands",
                "in 2024|in 20 24",
                "in 1905|in 19 oh 5",
                "in 1066|in 10 66",
                "in 1900 and 2005|in 1900 and 2005",
                "1,2345 and 3.2024 and 12345|1,2345 and 3.2024 and 12345",
                // times: espeak says "ten zero five"
                "at 10:05|at 10 oh 5",
                "at 10:00|at 10 o'clock",
                "at 10:00 pm|at 10 pm",
                "at 10:30 and 23:59|at 10:30 and 23:59",
                "at 10:00:05|at 10:00:05",
                // ranges: espeak says "five dash ten"
                "pages 5-10|pages 5 to 10",
                "1990-1995|19 90 to 19 95",
                "call 555-1234 or 2024-01-05|call 555-1234 or 2024-01-05",
                "a -5 b|a -5 b",
                // ordinals of round hundreds: espeak says "one hundred th"
                "the 100th, 1,000th and 2000000th|the 1 hundredth, 1 thousandth and 2 millionth",
                "the 101st and 21st and 0th|the 101st and 21st and 0th",
                // a decimal without its zero: espeak says "dot five"
                "a .25 chance|a point 2 5 chance",
                "version 1.25|version 1.25",
                // abbreviations espeak spells out or misreads
                "Ms. Jones and Prof. Smith|Miz Jones and Professor Smith",
                "Dr. Who met Mr. Bean|Dr Who met Mr Bean",
                "St. Paul lives on Elm St. now|Saint Paul lives on Elm Street now",
                "They live on Elm St.|They live on Elm Street.",
                "Then St. Paul said|Then Saint Paul said",
                "Smith vs. Jones|Smith versus Jones",
                "Apple Inc. makes phones|Apple Incorporated makes phones",
                "He works at Apple Inc. She does not|He works at Apple Incorporated. She does not",
                "John Smith Jr., the son|John Smith Junior, the son",
                "No. 5 and No 6 and No. way|number 5 and No 6 and No. way",
                "the dr. said|the dr. said"
            })
    void rewritesWhatEspeakGetsWrong(String text, String expected) {
        assertThat(EnglishNormalizer.normalize(text)).isEqualTo(expected);
    }
}
