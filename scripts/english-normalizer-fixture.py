r"""Writes the golden fixture for EnglishTextNormalizerTest: inputs and what OpenAI Whisper's own
EnglishTextNormalizer (release 20250625) makes of them, one a line: the input, a tab, Whisper's output, with
backslash, tab, newline and carriage return written as \\, \t, \n and \r.

Rerun from the repository root, with Whisper's normalisers importable (pip install openai-whisper==20250625,
or put that release's whisper/normalizers folder on PYTHONPATH with the regex and more-itertools packages):
    python3 scripts/english-normalizer-fixture.py > evaluation/src/test/resources/text/whisper-english-normalizer.tsv

The inputs: hand-written sentences, every British spelling the Java list holds (so a wrong entry fails), the
pocketsphinx test transcripts (Debian's pocketsphinx-testdata), and seeded random word sequences that stress the
number rules. A line Whisper itself fails on has "!error " and the exception's name as its output: the Java side
must then merely not fail.
"""
import random
import re
import sys
from pathlib import Path

from whisper.normalizers import EnglishTextNormalizer

normalizer = EnglishTextNormalizer()
inputs = []

# numbers
inputs += [
    "twenty one", "two hundred and five", "one hundred and twenty three thousand four hundred and fifty six",
    "nineteen eighty four", "nineteen hundred", "two thousand and twenty four", "one million two hundred thousand",
    "three point one four", "one point five", "zero point five", "point five", "oh", "one oh one", "double seven",
    "triple zero", "double o seven", "first", "second place", "the twenty first century", "thirty second", "hundredth",
    "the millionth visitor", "the sixties", "in the twenties", "ones and sixes", "fives", "ninety nines",
    "fifty percent", "five per cent", "ten percent of twenty", "minus five", "plus two", "negative one point five",
    "three dollars", "a dollar", "three dollars and fifty cents", "fifty cents", "two pounds", "five euros",
    "twenty million dollars", "$20 million", "$5", "$0.07", "$3.50", "5%", "1,000,000", "1,2,3", "3.14", "1960s",
    "21st", "2nd", "32 nd", "5km", "a1 b2", "one", "one of them", "the ones", "two and a half", "and a half",
    "six and a half million", "one and a half", "the third and a half", "five five", "ten of clubs",
    "four queen of clubs", "seven hundred and seventy seven", "eleven hundred", "twelve thousand", "ninety nine point nine",
    "one two three four", "twenty twenty", "two thousand three hundred", "a hundred", "hundreds of people",
    "thousands", "millions of dollars", "point", "the point is", "and", "one and two", "double trouble",
    "zero", "zeroth", "o clock", "seven o one", "nine eleven", "one nine one one", "five hundred thousand",
    "1.5 million", "0.5 billion", "12 hundred", "1.0005 hundred", "I have 2 apples and twenty two oranges",
    "it costs £5 or €10", "0 oh five", "0 double two", "0 point five", "0 hundred", "0 thousandth", "between 5 and 10", "4 x 4", "room 101", "version 2.0.1", "192.168.0.1",
]
# contractions, titles, fillers, brackets, punctuation, diacritics
inputs += [
    "Mr. John Dashwood", "Mrs. Dashwood", "Dr. Smith and St. James", "Prof. Capt. Gov. Gen. Sen. Rep. Pres. Rev. Hon.",
    "Asst. Assoc. Lt. Col. Jr. Sr. Esq.", "I won't go, I can't", "let's go y'all", "I ain't gonna", "wanna gotta",
    "i'ma imma", "woulda coulda shoulda", "ma'am", "he'd been there", "she's been", "he's gone", "it's got to",
    "we'd done it", "they're here", "it's mine", "I'd like", "we'll see", "I've seen", "I'm here", "don't",
    "isn't it", "you 're right", "hmm, um, uh, mm, mhm, mmm, okay", "hmmm umm", "[noise] hello [laughter]",
    "<unk> word <s>", "(laughs) well (inaudible)", "a (b) c", "()", "[a(b]c)", "Hello, world! How are you?",
    "end.", "e.g. this", "U.S.A.", "3.5. next", "wait... what?", "semi-colon; colon: dash — em", "quote \"this\" 'that'",
    "café naïve résumé", "Æsop's œuvre", "straße", "Łódź", "þorn ðe", "½ ¼", "x²", "ﬁne", "emoji 😀 here",
    "tab\there\nnewline", "  spaced   out  ", "UPPER lower MiXeD", "colour and flavour", "the neighbour's behaviour",
    "organise the programme", "travelled to the theatre", "the grey centre", "I realised", "analyse this",
    "100% sure", "50 %", "a % sign", "$ alone", "£", "the . dot", "C++ and C#", "#hashtag @mention", "a&b", "a/b",
    "under_score", "\u0663 \u0663.\u0665 hundred and \u0663", "x \u0665 point five", "\uff11\uff12 fullwidth", "it's 5 o'clock", "rock 'n' roll", "'quoted'", "1st 2nd 3rd 4th", "the 1990's",
]
# the British spellings the Java list holds, each alone
spellings = Path("evaluation/src/main/resources/dev/audioengine/evaluation/british-american-spellings.txt")
for line in spellings.read_text(encoding="utf-8").splitlines():
    if line and not line.startswith("#"):
        inputs.append(line.split()[0])
# the pocketsphinx transcripts, without the <s> </s> markers and the (id)
for name in ["/usr/share/pocketsphinx/test/data/librivox/transcription", "/usr/share/pocketsphinx/test/data/cards/cards.transcription"]:
    for line in Path(name).read_text(encoding="utf-8").splitlines():
        text = re.sub(r"\s*\([^)]*\)\s*$", "", line).replace("<s>", "").replace("</s>", "").strip()
        if text:
            inputs.append(text)

rnd = random.Random(20240601)
number_words = ("zero oh o one two three four five six seven eight nine ten eleven twelve thirteen fifteen nineteen "
                "twenty thirty forty fifty ninety hundred thousand million billion first second third fifth twelfth "
                "twentieth hundredth thousandth millionth sixties twenties ones sixes hundreds millions and point "
                "double triple a half minus plus negative dollars dollar cents cent pounds euros percent per "
                "5 12 3.5 0 1 100 1960s $20 21st the of clubs it is").split()
for _ in range(600):
    inputs.append(" ".join(rnd.choice(number_words) for _ in range(rnd.randint(1, 9))))
messy = ("Mr. St. Dr. don't won't it's we're (laughs) [noise] <unk> colour, flavour. $5 5% 3.50 1,000 1,2 £3 €4 ¢5 "
         "— - ' \" ! ? ; : ... é naïve ½ ² hmm uh um uh-huh twenty one first point five and a half percent 10 2.5. "
         "Hello WORLD o'clock e.g. a.m. 9am 5pm 3rd").split()
for _ in range(300):
    inputs.append(" ".join(rnd.choice(messy) for _ in range(rnd.randint(1, 8))))

def escape(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


seen = set()
for text in inputs:
    if text in seen:
        continue
    seen.add(text)
    try:
        out = escape(normalizer(text))
    except Exception as e:  # Whisper's own asserts and ValueErrors
        out = "!error " + type(e).__name__
    sys.stdout.write(escape(text) + "\t" + out + "\n")
