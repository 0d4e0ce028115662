package dev.audioengine.model.task;

/**
 * What a recognizer's batched decoder has done and holds (the server's {@code /metrics}): one decoder step advances
 * every sequence in flight by a token, so {@link #occupancy()} is how many windows a step served on average.
 *
 * @param slots         sequences one step can hold (the batch size in use: --max-batch, or fewer when the memory
 *                      budget holds fewer caches)
 * @param active        sequences in flight now
 * @param queued        windows waiting for a slot now
 * @param steps         decoder steps run
 * @param sequenceSteps tokens decoded over all steps (the sum of every step's sequences)
 * @param windows       windows decoded, including those that found the batch idle and were decoded alone (as without
 *                      batching, so that a lone request costs nothing extra; they add no steps)
 * @param loneWindows   of {@code windows}, those decoded alone
 * @param encoderRuns   runs of the batched encoder (each encodes the windows that joined between two steps, up to a
 *                      limit, together); {@code windows - loneWindows} over this is how many a run encoded on average
 * @param stages        where the batch's time went, in seconds of wall time summed over the threads that drove it
 */
public record BatchStats(
        int slots,
        int active,
        int queued,
        long steps,
        long sequenceSteps,
        long windows,
        long loneWindows,
        long encoderRuns,
        Stages stages) {
    /** All zero: a recognizer that does not batch, or the start of a sum. */
    public static final BatchStats NONE = new BatchStats(0, 0, 0, 0, 0, 0, 0, 0, Stages.NONE);

    /**
     * Seconds spent in each stage of batched decoding (the server's {@code /metrics}, to find what keeps a batch from
     * filling). A stage is timed on the thread that ran it, so stages that wait for one another add up to wall time.
     *
     * @param compile  compiling encoder graphs for window lengths not seen (or evicted), part of {@code encode}
     * @param encode   encoding windows as they join the batch (their encoder graph compiled when needed, then run)
     * @param step     running decoder steps, from the step's inputs to its tokens back on the host
     * @param lockWait waiting for the engine (another model or a lone window using the same device) before a stage
     * @param lone     decoding windows alone (the batch idle when they came): encode and every step
     */
    public record Stages(double compile, double encode, double step, double lockWait, double lone) {
        /** All zero. */
        public static final Stages NONE = new Stages(0, 0, 0, 0, 0);

        /**
         * The sum of two stage timings.
         *
         * @param o the other timing
         * @return a new record with every stage summed
         */
        public Stages plus(Stages o) {
            return new Stages(
                    compile + o.compile, encode + o.encode, step + o.step, lockWait + o.lockWait, lone + o.lone);
        }
    }

    /**
     * Sequences per step on average; 0 before the first step.
     *
     * @return {@code sequenceSteps / steps}, between 1 and {@code slots} once steps have run
     */
    public double occupancy() {
        return steps == 0 ? 0 : sequenceSteps / (double) steps;
    }

    /**
     * The sum of two batches' figures (a model with several batches, or several devices).
     *
     * @param o the other batch's figures
     * @return a new record with every field summed
     */
    public BatchStats plus(BatchStats o) {
        return new BatchStats(
                slots + o.slots,
                active + o.active,
                queued + o.queued,
                steps + o.steps,
                sequenceSteps + o.sequenceSteps,
                windows + o.windows,
                loneWindows + o.loneWindows,
                encoderRuns + o.encoderRuns,
                stages.plus(o.stages));
    }
}
