package dev.audioengine.models.whisper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.models.whisper.WhisperNetwork.WhisperConfig;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pieces of word timestamps that need no model: the alignment-head table, the median filter, DTW, and words from
 * tokens as openai-whisper makes them (on GPT-2's real vocabulary). The DTW times themselves are compared with
 * whisper.cpp's in {@link WhisperWordTimestampsTest}.
 */
class WhisperAlignmentTest {
    static WhisperConfig shape(int vocabulary, int d, int layers, int heads) {
        return new WhisperConfig(vocabulary, 1500, d, heads, 2, 448, d, heads, layers, 80);
    }

    @Test
    void presetsFollowTheModelsShape() {
        assertThat(WhisperAlignment.forShape(shape(51865, 384, 4, 6)).toString())
                .isEqualTo("tiny [2:2,3:0,3:2,3:3,3:4,3:5]");
        assertThat(WhisperAlignment.forShape(shape(51864, 384, 4, 6)).name()).isEqualTo("tiny.en");
        assertThat(WhisperAlignment.forShape(shape(51865, 512, 6, 8)).name()).isEqualTo("base");
        assertThat(WhisperAlignment.forShape(shape(51866, 1280, 4, 20)).toString())
                .isEqualTo("large-v3-turbo [2:4,2:11,3:3,3:6,3:11,3:14]");
        assertThat(WhisperAlignment.forShape(shape(51866, 1280, 32, 20)).name()).isEqualTo("large-v3");
        // large-v1 and large-v2 share a shape; distil-large-v3 (2 layers) has no preset: openai-whisper's fallback
        WhisperAlignment.Heads large = WhisperAlignment.forShape(shape(51865, 1280, 32, 20));
        assertThat(large.name()).startsWith("default").contains("large-v1").contains("large-v2");
        assertThat(large.count()).isEqualTo(16 * 20);
        assertThat(large.layers()[0]).isEqualTo(16);
        WhisperAlignment.Heads distil = WhisperAlignment.forShape(shape(51866, 1280, 2, 20));
        assertThat(distil.count()).isEqualTo(20);
        assertThat(Arrays.stream(distil.layers()).distinct().toArray()).containsExactly(1);
    }

    @Test
    void headsByNameOrPairs() {
        WhisperConfig large = shape(51865, 1280, 32, 20);
        assertThat(WhisperAlignment.parse("large.v2", large).name()).isEqualTo("large-v2");
        assertThat(WhisperAlignment.parse("large-v1", large).count()).isEqualTo(9);
        assertThat(WhisperAlignment.parse("auto", large).name()).startsWith("default");
        assertThat(WhisperAlignment.parse("3:1, 4:2".replace(" ", ""), large).toString())
                .isEqualTo("custom [3:1,4:2]");
        WhisperConfig tiny = shape(51865, 384, 4, 6);
        assertThatThrownBy(() -> WhisperAlignment.parse("base", tiny))
                .hasMessageContaining("4:2")
                .hasMessageContaining("outside this model's 4 decoder layers of 6 heads");
        assertThatThrownBy(() -> WhisperAlignment.parse("huge", tiny))
                .hasMessageContaining("neither a preset")
                .hasMessageContaining("large-v3-turbo");
        assertThatThrownBy(() -> WhisperAlignment.parse("1:6", tiny)).hasMessageContaining("outside");
    }

    /** Reflected edges as torch's F.pad(mode="reflect") before openai-whisper's median, and whisper.cpp's. */
    @Test
    void medianFilterReflectsAtTheEdges() {
        assertThat(WhisperAlignment.median(new float[] {1, 5, 2, 8, 3}, 3)).containsExactly(5, 2, 5, 3, 8);
        assertThat(WhisperAlignment.median(new float[] {1, 5, 2, 8, 3}, 1)).containsExactly(1, 5, 2, 8, 3);
        assertThat(WhisperAlignment.median(new float[] {4, 1, 7, 3, 9, 2, 6, 8}, 5))
                .containsExactly(4, 3, 4, 3, 6, 6, 6, 6);
    }

    /** A cheap diagonal band: the path follows it; every row entered once, in order. */
    @Test
    void dtwFollowsTheCheapestPath() {
        float[][] x = new float[3][8];
        for (float[] row : x) Arrays.fill(row, 1);
        // row 0 cheap over columns 0-1, row 1 over 2-4, row 2 over 5-7
        for (int j = 0; j < 8; j++) x[j < 2 ? 0 : j < 5 ? 1 : 2][j] = -1;
        int[][] path = WhisperAlignment.dtw(x);
        assertThat(path[0]).containsExactly(0, 0);
        assertThat(path[path.length - 1]).containsExactly(2, 7);
        int[] rowOf = new int[8];
        for (int[] step : path) rowOf[step[1]] = step[0];
        assertThat(rowOf).containsExactly(0, 0, 1, 1, 1, 2, 2, 2);
    }

    @Test
    void wordsJoinTokensAndPunctuationAsOpenAiWhisper() {
        WhisperTokenizer t = WhisperTokenizer.fromGgml(Gpt2Vocabulary.bytes(), 51865);
        String text = " Hello, world! \"Yes\" (no).";
        List<Integer> ids = Arrays.stream(t.encode(text)).boxed().toList();
        int[] times = new int[ids.size()];
        float[] p = new float[ids.size()];
        for (int i = 0; i < times.length; i++) {
            times[i] = 10 * (i + 1);
            p[i] = 0.1f * (i % 5 + 1);
        }
        List<WhisperAlignment.Word> words = WhisperAlignment.words(t, "en", ids, p, times, new int[0]);
        assertThat(words)
                .extracting(WhisperAlignment.Word::text)
                .containsExactly(" Hello,", " world!", " \"Yes\"", " (no).");
        assertThat(String.join(
                        "", words.stream().map(WhisperAlignment.Word::text).toList()))
                .isEqualTo(text);
        // " Hello" is token 0 and "," token 1: the word keeps " Hello"'s times (0 to its token's time) and probability
        assertThat(ids.subList(0, 2)).containsExactly(t.encode(" Hello")[0], t.encode(",")[0]);
        WhisperAlignment.Word hello = words.get(0), world = words.get(1);
        assertThat(hello.start()).isEqualTo(0);
        assertThat(hello.end()).isEqualTo(0.1);
        assertThat(hello.probability()).isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(world.start()).isEqualTo(0.2);
        assertThat(world.end()).isEqualTo(0.3);
        assertThat(hello.firstToken()).isZero();
        assertThat(hello.endToken()).isEqualTo(2);
        assertThat(world.firstToken()).isEqualTo(2);
    }

    /** A character split over tokens stays whole; without spaces between words each character is a word. */
    @Test
    void charactersStayWholeAndSpacelessLanguagesSplitByCharacter() {
        WhisperTokenizer t = WhisperTokenizer.fromGgml(Gpt2Vocabulary.bytes(), 51865);
        String text = " 東京 café🙂";
        List<Integer> ids = Arrays.stream(t.encode(text)).boxed().toList();
        assertThat(ids.size())
                .as("the CJK and emoji characters span several byte-level tokens")
                .isGreaterThan(6);
        int[] times = new int[ids.size()];
        float[] p = new float[ids.size()];
        Arrays.fill(p, 1);
        for (int i = 0; i < times.length; i++) times[i] = i;
        List<WhisperAlignment.Word> en = WhisperAlignment.words(t, "en", ids, p, times, new int[0]);
        assertThat(en).extracting(WhisperAlignment.Word::text).containsExactly(" 東京", " café🙂");
        List<WhisperAlignment.Word> ja = WhisperAlignment.words(t, "ja", ids, p, times, new int[0]);
        assertThat(String.join("|", ja.stream().map(WhisperAlignment.Word::text).toList()))
                .doesNotContain("\uFFFD")
                .contains("東|京");
    }

    /**
     * A timestamp that cuts a word in two (random and real models both do it: " Distance" | "uture") starts a new word:
     * each segment's words spell exactly its own tokens' text, and the piece after the cut keeps the window's times.
     */
    @Test
    void aSegmentStartAlwaysStartsAWord() {
        WhisperTokenizer t = WhisperTokenizer.fromGgml(Gpt2Vocabulary.bytes(), 51865);
        List<Integer> ids = Arrays.stream(t.encode(" Hello, unbelievably sesquipedalian words, (truly)."))
                .boxed()
                .toList();
        int cut = java.util.stream.IntStream.range(1, ids.size())
                .filter(i -> {
                    String piece = t.decode(ids.subList(i, i + 1));
                    return !piece.startsWith(" ") && Character.isLetter(piece.charAt(0));
                })
                .findFirst()
                .orElse(-1);
        assertThat(cut).as("a word of several tokens in " + ids).isPositive();
        int[] times = new int[ids.size()];
        float[] p = new float[ids.size()];
        for (int i = 0; i < times.length; i++) {
            times[i] = 7 * (i + 1);
            p[i] = 0.05f * (i + 1);
        }
        List<WhisperAlignment.Word> whole = WhisperAlignment.words(t, "en", ids, p, times, new int[0]);
        List<WhisperAlignment.Word> split = WhisperAlignment.words(t, "en", ids, p, times, new int[] {0, cut});
        assertThat(whole).noneMatch(w -> w.firstToken() == cut);
        assertThat(split).hasSize(whole.size() + 1);
        String before = t.decode(ids.subList(0, cut)), after = t.decode(ids.subList(cut, ids.size()));
        assertThat(String.join(
                        "",
                        split.stream()
                                .filter(w -> w.firstToken() < cut)
                                .map(WhisperAlignment.Word::text)
                                .toList()))
                .isEqualTo(before);
        assertThat(String.join(
                        "",
                        split.stream()
                                .filter(w -> w.firstToken() >= cut)
                                .map(WhisperAlignment.Word::text)
                                .toList()))
                .isEqualTo(after);
        WhisperAlignment.Word piece =
                split.stream().filter(w -> w.firstToken() == cut).findFirst().orElseThrow();
        assertThat(piece.start()).isEqualTo(times[cut - 1] / 100.0);
        assertThat(piece.end()).isEqualTo(times[piece.endToken() - 1] / 100.0);
        double mean = 0;
        for (int i = cut; i < piece.endToken(); i++) mean += p[i] / (piece.endToken() - cut);
        assertThat(piece.probability()).isCloseTo(mean, org.assertj.core.data.Offset.offset(1e-6));
        // words away from the cut are the same words, with the same times
        assertThat(split.getLast()).isEqualTo(whole.getLast());
        assertThat(split.getFirst()).isEqualTo(whole.getFirst());

        // a closing mark first in its segment stays there instead of joining the word before the cut
        int comma = ids.indexOf(t.encode(",")[0]);
        List<WhisperAlignment.Word> atComma = WhisperAlignment.words(t, "en", ids, p, times, new int[] {comma});
        assertThat(atComma.stream()
                        .filter(w -> w.firstToken() == comma)
                        .findFirst()
                        .orElseThrow()
                        .text())
                .isEqualTo(",");
        assertThat(atComma.getFirst().text()).isEqualTo(" Hello");

        assertThatThrownBy(() -> WhisperAlignment.words(t, "en", ids, p, times, new int[] {cut, 1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not ascending");
    }
}
