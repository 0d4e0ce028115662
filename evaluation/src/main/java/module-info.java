/**
 * Scoring transcripts: {@link dev.audioengine.evaluation.WordErrorRate} and the English text normaliser it is used
 * with (Whisper's, so rates compare with published ones). For tests and benches; nothing in production requires it.
 */
module dev.audioengine.evaluation {
    exports dev.audioengine.evaluation;
}
