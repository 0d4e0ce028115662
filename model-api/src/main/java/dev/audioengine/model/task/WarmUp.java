package dev.audioengine.model.task;

import dev.audioengine.model.TaskModel;

/**
 * One short run of a loaded model on a made-up input, so that the graphs and kernels its first real request uses are
 * compiled (and the JIT has compiled the engine's kernels) before that request comes: the server's {@code --preload}
 * and the Spark job's local-mode start use it. 2 s of a quiet tone in noise for ASR (one window straight to the
 * network), VAD, wake words and notes; one word for TTS. The results are thrown away.
 */
public final class WarmUp {
    private WarmUp() {}

    /**
     * Runs {@code model} once; a task this class does not know is left alone.
     *
     * @param model a loaded model
     */
    public static void run(TaskModel model) {
        switch (model) {
            // one window straight to the network, not through the VAD: a second pass through the VAD measured no gain
            // on the Spark job (docs/PERFORMANCE.md) and would run a large Whisper's 30 s encoder twice
            case SpeechRecognizer asr -> asr.transcribeWindow(tone(16000), 0, AsrOptions.DEFAULTS);
            case VoiceActivityDetector vad -> {
                int rate = vad.sampleRates().getFirst();
                vad.probabilities(tone(rate), rate);
            }
            case SpeechSynthesizer tts -> tts.synthesize("Hello.", SynthesisOptions.DEFAULTS);
            case KeywordSpotter kws -> // the one-frame and batched graphs a request uses
                kws.scores(tone(kws.sampleRate()), kws.sampleRate(), KeywordOptions.DEFAULTS);
            case NoteTranscriber notes ->
                notes.transcribe(tone(notes.sampleRate()), notes.sampleRate(), NoteOptions.DEFAULTS);
            default -> {}
        }
    }

    private static float[] tone(int rate) {
        float[] x = new float[2 * rate];
        java.util.Random r = new java.util.Random(26);
        for (int i = 0; i < x.length; i++)
            x[i] = (float) (0.05 * Math.sin(2 * Math.PI * 220 * i / rate) + 0.005 * r.nextGaussian());
        return x;
    }
}
