package dev.audioengine.model.task;

/**
 * How a sampling decoder came to a segment's text, for recognizers that decode with temperature fallback (Whisper): the
 * figures OpenAI's verbose_json gives per segment, which clients use to drop doubtful segments.
 *
 * @param temperature the temperature of the pass whose result was kept (0: greedy or beam search)
 * @param averageLogProbability the kept result's mean log-probability per token ({@code -Infinity} when it is empty)
 * @param compressionRatio the text's UTF-8 bytes over their zlib-compressed size (openai-whisper's
 *     {@code compression_ratio}; 0 for no text)
 * @param noSpeechProbability the probability of the no-speech token after the start of transcript
 */
public record DecodingStats(
        double temperature, double averageLogProbability, double compressionRatio, double noSpeechProbability) {}
